terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

output "name" {
  value = "web"

  precondition {
    condition     = true
    error_message = "Never."
  }
}

data "http" "home" {
  url   = "https://example.com"
  count = 1

  lifecycle {
    postcondition {
      condition     = self.status_code == 200
      error_message = "Down."
    }
  }
}
