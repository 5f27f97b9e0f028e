locals {
  name        = "net-${var.region}"
  zone_count  = length(var.zones)
  first_zone  = var.zones.0
  # halite-ignore: interpolation-only
  quoted_name = "${local.name}"
}

module "network" {
  source = "./modules/network"
  cidr   = "10.0.0.0/16"
  name   = local.name
}

output "network_id" {
  value = module.network.id
}

output "zones" {
  value = upper(local.first_zone)
}
