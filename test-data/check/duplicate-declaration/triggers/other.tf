variable "region" {
  default = "us-east-1"
}

locals {
  name = "worker"
}

resource "aws_instance" "web" {
  ami = "ami-123"
}

output "id" {
  value = local.name
}
