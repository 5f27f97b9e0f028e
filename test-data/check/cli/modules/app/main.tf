module "network" {
  source     = "../network"
  cidr_block = "10.0.0.0/16"
  regoin     = "eu-west-1"
}

locals {
  unused = "off by halite.toml here"
  # halite-ignore: undeclared-reference
  silenced = local.nope
  port     = 8080
  listen   = "0.0.0.0:${local.prot}"
}

output "listen" {
  value = [local.listen, local.port]
}
