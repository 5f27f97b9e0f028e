varaible "region" {
  type = string
}

variable "name" {
  type = string

  validaton {
    condition     = length(var.name) > 0
    error_message = "The name must not be empty."
  }

  default {
    value = "x"
  }
}

locals {
  name = var.name

  nested {
    value = 1
  }
}

resource "aws_instance" "web" {
  ami = "ami-123"

  locals {
    reserved = true
  }
}

module "network" {
  source = "./network"

  lifecycle {
    create_before_destroy = true
  }
}

terraform {
  required_provider {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
