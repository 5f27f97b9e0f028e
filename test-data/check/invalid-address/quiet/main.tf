locals {
  ids = { a = "i-1", b = "i-2" }
}

resource "aws_instance" "web" {
  for_each = local.ids
  ami      = "ami-123"
}

resource "aws_instance" "single" {
  ami = "ami-123"
}

module "network" {
  source = "./network"
}

moved {
  from = aws_instance.old
  to   = aws_instance.single
}

moved {
  from = aws_instance.single_old[0]
  to   = aws_instance.web["a"]
}

moved {
  from = module.old_network
  to   = module.network
}

moved {
  from = module.old_network.aws_vpc.this
  to   = module.network.aws_vpc.this
}

moved {
  from = resource.aws_instance.legacy
  to   = aws_instance.single
}

import {
  for_each = local.ids
  to       = aws_instance.web[each.key]
  id       = each.value
}

import {
  to = module.network.aws_vpc.this
  id = "vpc-123"
}

removed {
  from = module.retired

  lifecycle {
    destroy = false
  }
}

removed {
  from = aws_instance.gone

  lifecycle {
    destroy = false
  }
}
