identity_token "aws" {}

upstream_input "net" {
  type = "stack"
}

publish_output "id" {
  description = "No value."
}

deployment_auto_approve "safe" {
  check {
    condition = true
  }
}
