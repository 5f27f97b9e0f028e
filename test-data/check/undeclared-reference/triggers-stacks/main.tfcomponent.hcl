variable "region" {
  type = string
}

locals {
  name = "app-${var.regoin}"
}

provider "aws" "main" {
  config {
    region = var.region
  }
}

component "network" {
  source = "./network"
  inputs = { name = local.nmae }
  providers = {
    aws    = provider.aws.mian
    google = provider.google.main
  }
}

component "app" {
  source     = "./app"
  inputs     = { vpc_id = component.netwrok.vpc_id }
  depends_on = [component.network, stack.shared]
}
