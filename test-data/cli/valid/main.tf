terraform {
  required_version = ">= 1.5"
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

locals {
  name = "halite-${var.region}"
  tags = { Project = "halite", Owner = "platform" }
}

output "name" {
  value = local.name
}

output "tags" {
  value = local.tags
}
