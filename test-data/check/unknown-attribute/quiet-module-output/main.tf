module "network" {
  source = "./network"
  cidr   = "10.0.0.0/16"
}

module "zones" {
  source   = "./network"
  for_each = toset(["a", "b"])
  cidr     = each.key
}

module "registry" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
}

output "vpc" {
  value = module.network.vpc_id
}

# An output the child declares in JSON syntax.
output "arn" {
  value = module.network.arn
}

output "zone" {
  value = module.zones["a"].subnet_ids
}

# A registry module's outputs are not on disk: not checked.
output "registry" {
  value = module.registry.anything
}

# Addresses of resources inside the child, not outputs.
moved {
  from = module.network.aws_vpc.this
  to   = module.zones["a"].aws_vpc.this
}

removed {
  from = module.network.aws_subnet.old

  lifecycle {
    destroy = false
  }
}

# Inside `try` or `can`, a missing output is an evaluation error the call
# catches, as Terraform evaluates it (its validation only checks that the
# module call exists).
output "tried" {
  value = try(module.network.vpc_ids["a"], null)
}

output "could" {
  value = can(module.zones["a"].subnets)
}
