# Every argument and block Terraform's own schemas have, each where it
# belongs, and provider-defined arguments and blocks of every shape.
terraform {
  required_version = ">= 1.5"
  experiments      = []

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }

  backend "s3" {
    bucket = "state"
    key    = "terraform.tfstate"
    anything_the_backend_takes {
      nested = true
    }
  }

  provider_meta "aws" {
    module_name = "example"
  }
}

provider "aws" {
  alias   = "west"
  region  = "us-west-2"
  version = "~> 5.0"

  assume_role {
    role_arn = "arn:aws:iam::123456789012:role/example"
  }
}

variable "name" {
  description = "The name."
  type        = string
  default     = "web"
  sensitive   = false
  nullable    = false
  ephemeral   = false

  validation {
    condition     = length(var.name) > 0
    error_message = "The name must not be empty."
  }

  validation {
    condition     = length(var.name) < 64
    error_message = "The name is too long."
  }
}

variable "tags" {
  type    = map(string)
  default = {}
}

locals {
  prefix = "app-${var.name}"
}

module "network" {
  source     = "./network"
  cidr_block = "10.0.0.0/16"
  depends_on = [aws_instance.web]
  providers = {
    aws = aws.west
  }
}

module "copies" {
  source   = "./network"
  for_each = toset(["a", "b"])
  cidr_block = each.key
}

resource "aws_instance" "web" {
  count         = 2
  ami           = "ami-123"
  instance_type = "t3.micro"
  provider      = aws.west
  tags          = var.tags

  root_block_device {
    volume_size = 8
  }

  dynamic "ebs_block_device" {
    for_each = toset(["sdb", "sdc"])
    iterator = device
    content {
      device_name = device.value
    }
  }

  lifecycle {
    create_before_destroy = true
    prevent_destroy       = false
    ignore_changes        = [tags]

    precondition {
      condition     = var.name != ""
      error_message = "A name is needed."
    }

    postcondition {
      condition     = self.ami != ""
      error_message = "An AMI is needed."
    }
  }

  connection {
    type = "ssh"
    host = self.public_ip
  }

  provisioner "remote-exec" {
    inline     = ["echo ${local.prefix}"]
    on_failure = continue

    connection {
      type = "ssh"
      host = self.private_ip
    }
  }
}

data "aws_ami" "ubuntu" {
  most_recent = true
  depends_on  = [aws_instance.web]

  filter {
    name   = "name"
    values = ["ubuntu-*"]
  }

  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "No AMI."
    }
  }
}

output "ids" {
  description = "The instances' identifiers."
  value       = aws_instance.web[*].id
  sensitive   = false
  depends_on  = [module.network]

  precondition {
    condition     = length(aws_instance.web) > 0
    error_message = "No instances."
  }
}

output "ami" {
  value = data.aws_ami.ubuntu.id
}

moved {
  from = aws_instance.old
  to   = aws_instance.web
}

import {
  to = aws_instance.imported
  id = "i-123"
}

resource "aws_instance" "imported" {
  ami = "ami-123"
}

removed {
  from = aws_instance.gone

  lifecycle {
    destroy = false
  }
}

check "health" {
  data "http" "home" {
    url = "https://example.com"
  }

  assert {
    condition     = data.http.home.status_code == 200
    error_message = "The home page is down."
  }
}
