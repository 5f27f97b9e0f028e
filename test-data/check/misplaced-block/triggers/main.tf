required_providers {
  aws = {
    source = "hashicorp/aws"
  }
}

output "name" {
  value = "web"

  postcondition {
    condition     = true
    error_message = "Never."
  }
}

check "health" {
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

  assert {
    condition     = data.http.home.status_code == 200
    error_message = "The home page is down."
  }
}
