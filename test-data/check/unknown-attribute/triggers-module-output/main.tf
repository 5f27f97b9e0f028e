module "network" {
  source = "./network"
  cidr   = "10.0.0.0/16"
}

module "zones" {
  source   = "./network"
  for_each = toset(["a", "b"])
  cidr     = each.key
}

# Misspelled: the child has "vpc_id".
output "vpc" {
  value = module.network.vpcid
}

# No such output at all.
output "nope" {
  value = module.network.nope
}

# One instance of a call with for_each.
output "zone" {
  value = module.zones["a"].subnet
}
