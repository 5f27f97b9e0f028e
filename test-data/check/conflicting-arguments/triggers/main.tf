resource "aws_instance" "web" {
  count    = 2
  for_each = toset(["a", "b"])
  ami      = "ami-123"
}

module "network" {
  source   = "terraform-aws-modules/vpc/aws"
  count    = 1
  for_each = {}
}

import {
  to       = aws_instance.other
  id       = "i-123"
  identity = { id = "i-123" }
}

resource "aws_instance" "other" {
  ami = "ami-123"
}
