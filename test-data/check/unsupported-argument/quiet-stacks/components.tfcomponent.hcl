# A Stack's component configuration with every block and argument
# Terraform's stackconfig package and the documentation give.
language = TFStack2023

required_providers {
  aws = {
    source  = "hashicorp/aws"
    version = "~> 5.0"
  }
}

variable "regions" {
  type        = set(string)
  description = "Where to deploy."
  default     = ["us-east-1"]
  sensitive   = false
  nullable    = false
  ephemeral   = false

  validation {
    condition     = length(var.regions) > 0
    error_message = "At least one region."
  }
}

variable "identity_token" {
  type      = string
  ephemeral = true
}

locals {
  prefix = "app"
}

provider "aws" "configurations" {
  for_each = var.regions

  config {
    region = each.value
    assume_role_with_web_identity {
      role_arn           = "arn:aws:iam::123456789012:role/stacks"
      web_identity_token = var.identity_token
    }
    dynamic "default_tags" {
      for_each = [local.prefix]
      content {
        tags = { app = default_tags.value }
      }
    }
  }
}

component "network" {
  for_each = var.regions
  source   = "./network"
  inputs = {
    name = "${local.prefix}-${each.value}"
  }
  providers = {
    aws = provider.aws.configurations[each.value]
  }
}

component "app" {
  for_each   = var.regions
  source     = "app.terraform.io/example/app/aws"
  version    = "1.0.0"
  inputs     = { vpc_id = component.network[each.value].vpc_id }
  providers  = { aws = provider.aws.configurations[each.value] }
  depends_on = [component.network]
}

stack "shared" {
  source  = "app.terraform.io/example/shared"
  version = "1.2.0"
  inputs  = { prefix = local.prefix }
}

output "vpc_ids" {
  type        = map(string)
  value       = { for region in var.regions : region => component.network[region].vpc_id }
  description = "The VPCs."
  sensitive   = false
  ephemeral   = false
}

removed {
  for_each  = toset(["eu-west-1"])
  from      = component.old[each.value]
  source    = "./old"
  providers = { aws = provider.aws.configurations["us-east-1"] }
  lifecycle {
    destroy = true
  }
}
