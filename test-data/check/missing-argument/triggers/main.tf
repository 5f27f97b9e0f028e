output "name" {
  description = "No value."
}

module "network" {
  cidr_block = "10.0.0.0/16"
}

moved {
  from = aws_instance.a
}

import {
  to = aws_instance.a
}

variable "name" {
  type = string

  validation {
    condition = length(var.name) > 0
  }
}

resource "aws_instance" "a" {
  ami = "ami-123"

  dynamic "ebs_block_device" {
    content {
      device_name = "sdb"
    }
  }
}
