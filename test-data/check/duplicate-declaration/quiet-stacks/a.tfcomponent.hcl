# Names are per kind: a variable, an output, a component and a local may
# share one, and the deployment file's names are its own.
variable "app" {
  type = string
}

locals {
  app = var.app
}

component "app" {
  source = "./app"
  inputs = { name = local.app }
  providers = {
    aws = provider.aws.app
  }
}

provider "aws" "app" {
  config {}
}

provider "google" "app" {
  config {}
}

output "app" {
  type  = string
  value = component.app.id
}
