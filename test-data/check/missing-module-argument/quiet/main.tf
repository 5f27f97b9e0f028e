module "network" {
  source     = "./network"
  cidr_block = "10.0.0.0/16"
}

output "id" {
  value = module.network.id
}
