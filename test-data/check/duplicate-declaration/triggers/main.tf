variable "region" {}

locals {
  name = "web"
}

resource "aws_instance" "web" {
  ami  = var.region
  tags = { Name = local.name }
}

output "id" {
  value = var.region
}
