# Every root Terraform provides, and every place where a name is not a
# reference to check: none of this is an undeclared reference.

terraform {
  required_version = ">= 1.10"
  # An edition keyword, not a reference.
  language = TF2021
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.west]
    }
  }
}

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

variable "names" {
  type = list(string)
  validation {
    condition     = length(var.names) > 0
    error_message = "At least one name."
  }
}

variable "rules" {
  type = list(object({ port = number, cidr = string }))
}

resource "aws_instance" "web" {
  count    = length(var.names)
  provider = aws.west
  ami      = data.aws_ami.ubuntu.id
  tags = {
    Name      = var.names[count.index]
    Workspace = terraform.workspace
    Module    = path.module
    Root      = path.root
    Cwd       = path.cwd
  }
  user_data = templatefile("${path.module}/init.tftpl", { name = var.names[count.index], port = 80 })

  depends_on = [aws_security_group.web, module.network]

  lifecycle {
    ignore_changes        = [tags, ami]
    replace_triggered_by  = [terraform_data.revision.output, terraform_data.revision]
    create_before_destroy = true
    postcondition {
      condition     = self.ami != ""
      error_message = "No AMI."
    }
  }

  connection {
    host = self.public_ip
  }

  provisioner "local-exec" {
    command    = "echo ${self.private_ip}"
    when       = create
    on_failure = continue
  }
}

resource "aws_security_group" "web" {
  dynamic "ingress" {
    for_each = var.rules
    content {
      from_port   = ingress.value.port
      to_port     = ingress.value.port
      cidr_blocks = [ingress.value.cidr]
      description = "rule ${ingress.key}"
    }
  }

  dynamic "egress" {
    for_each = var.rules
    iterator = rule
    content {
      from_port = rule.value.port
      to_port   = rule.value.port

      dynamic "nested" {
        for_each = [rule.value]
        content {
          cidr = nested.value.cidr
        }
      }
    }
  }
}

resource "aws_eip" "each" {
  for_each = toset(var.names)
  instance = aws_instance.web[0].id
  tags     = { Name = each.key, Value = each.value }
}

resource "terraform_data" "revision" {
  input = var.names
}

data "aws_ami" "ubuntu" {}

data "terraform_remote_state" "network" {
  backend = "s3"
  config  = { bucket = "state", key = "network" }
}

ephemeral "random_password" "db" {
  length = 16
}

module "network" {
  source    = "./network"
  providers = { aws = aws.west }
  count     = 2
  name      = "net-${count.index}"
}

module "per_name" {
  source   = "./network"
  for_each = toset(var.names)
  name     = each.value
}

locals {
  vpc_id       = data.terraform_remote_state.network.outputs.vpc_id
  subnet_ids   = module.network[0].subnet_ids
  per_name     = { for name, network in module.per_name : name => network.subnet_ids }
  password     = ephemeral.random_password.db.result
  revision     = terraform_data.revision.output
  all_ids      = [for instance in aws_instance.web : instance.id]
  splat_ids    = aws_instance.web[*].id
  explicit     = resource.aws_eip.each
  first_eip    = aws_eip.each["a"].public_ip
  with_default = try(data.aws_ami.ubuntu.tags["Name"], null)
}

# `moved`, `import` and `removed` name resources by address, which may no
# longer (or not yet) be declared.
moved {
  from = aws_instance.old
  to   = aws_instance.web
}

moved {
  from = module.old_network
  to   = module.network
}

import {
  for_each = toset(var.names)
  to       = aws_eip.each[each.key]
  id       = each.value
}

import {
  to = aws_instance.imported
  id = "i-123"
}

removed {
  from = aws_instance.retired
  lifecycle {
    destroy = false
  }
}

# A check's scoped data source is read by the check's own assertions.
check "health" {
  data "http" "endpoint" {
    url = "https://${aws_instance.web[0].public_dns}/health"
  }

  assert {
    condition     = data.http.endpoint.status_code == 200
    error_message = "Unhealthy."
  }
}

# One data source per check block: Terraform rejects a second one.
check "identity" {
  data "aws_caller_identity" "scoped" {}

  assert {
    condition     = data.aws_caller_identity.scoped.account_id != ""
    error_message = "No account."
  }
}

output "ids" {
  value       = local.all_ids
  description = "The instances' ids."
  depends_on  = [aws_instance.web]
  precondition {
    condition     = length(local.splat_ids) > 0
    error_message = "No instance."
  }
}

output "everything" {
  value = [
    local.vpc_id, local.subnet_ids, local.per_name, local.revision, local.explicit,
    local.first_eip, local.with_default,
  ]
}

output "password" {
  value     = local.password
  ephemeral = true
}
