module "network" {
  source     = "./network"
  count      = 2
  cidr_block = "10.${count.index}.0.0/16"
  depends_on = [terraform_data.ready]
  providers  = { aws = aws.west }
}

module "remote" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
  anything = true
}

resource "terraform_data" "ready" {}

output "ids" {
  value = [module.network[*].id, module.remote.vpc_id]
}
