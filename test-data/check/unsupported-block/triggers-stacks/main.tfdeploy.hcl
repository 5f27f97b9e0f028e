deployments "prod" {
  inputs = {}
}

variable "region" {
  type = string
}

deployment_auto_approve "safe" {
  checks {
    condition = true
    reason    = "always"
  }
}
