identity_token "aws" {
  audiences = ["aws.workload.identity"]
}

deployment "prod" {
  input = {}
}

deployment_group "prod" {
  auto_approve_check = []
}

store "varset" "keys" {
  id       = "varset-1"
  categroy = "env"
}

deployment_auto_approve "safe" {
  check {
    condition = true
    reasons   = "always"
  }
}
