resource "aws_instance" "web" {
  count = 2
  ami   = "ami-123"
}

resource "aws_instance" "each" {
  for_each = toset(["a", "b"])
  ami      = each.key
}

module "network" {
  source   = "terraform-aws-modules/vpc/aws"
  for_each = {}
}

import {
  for_each = toset(["a", "b"])
  to       = aws_instance.each[each.key]
  id       = "i-${each.key}"
}
