locals {
  app = "deployed"
}

identity_token "app" {
  audience = ["aws.workload.identity"]
}

deployment "app" {
  inputs = { app = local.app }
}

store "varset" "app" {
  id       = "varset-1"
  category = "env"
}

store "other" "app" {
  id       = "varset-1"
  category = "terraform"
}
