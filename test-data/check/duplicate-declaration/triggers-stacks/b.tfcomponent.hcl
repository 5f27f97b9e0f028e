variable "region" {
  type = string
}

locals {
  name = "other"
}

component "app" {
  source = "./other"
}

component "app" {
  source = "./third"
}

provider "aws" "main" {
  config {}
}

required_providers {}

output "id" {
  type  = string
  value = component.app.id
}

output "id" {
  type  = string
  value = component.app.id
}
