output "name" {
  value = "web"
}

module "network" {
  source     = "terraform-aws-modules/vpc/aws"
  cidr_block = "10.0.0.0/16"
}

moved {
  from = aws_instance.a
  to   = aws_instance.b
}

import {
  to       = aws_instance.b
  identity = { id = "i-123" }
}

resource "aws_instance" "b" {
  ami = "ami-123"
}
