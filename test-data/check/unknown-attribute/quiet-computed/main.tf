variable "settings" {
  type = object({ name = string })
}

resource "aws_instance" "web" {
  ami = "ami-123"
}

module "network" {
  source = "./network"
}

output "arn" {
  value = [aws_instance.web.arn, module.network.subnet_id, var.settings.name]
}
