module "network" {
  source = "./network"
  name   = "edge"
}

output "id" {
  value = module.network.id
}
