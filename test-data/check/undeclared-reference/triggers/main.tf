variable "name" {}

locals {
  greeting = "Hello, ${var.nmae}!"
  shout    = upper(local.greting)
}

data "aws_ami" "ubuntu" {}

module "network" {
  source = "./network"
}

resource "aws_instance" "web" {
  ami       = data.aws_ami.ubunt.id
  subnet_id = module.netwrk.subnet_id
  tags      = { Name = var.name }
}

output "greeting" {
  value = local.greeting
}

output "shout" {
  value = local.shout
}
