variable "names" {
  type = list(string)
}

resource "aws_instance" "counted" {
  count = length(var.names)
  ami   = "ami-${count.index}"

  dynamic "ebs_block_device" {
    for_each = var.names
    content {
      device_name = "${ebs_block_device.value}-${count.index}"
    }
  }

  provisioner "local-exec" {
    command = "echo ${self.private_ip} ${count.index}"
  }

  connection {
    host = self.public_ip
  }

  lifecycle {
    postcondition {
      condition     = self.ami != ""
      error_message = "The AMI must be set."
    }
  }
}

module "each" {
  source   = "./child"
  for_each = toset(var.names)
  name     = each.key
  value    = each.value
}

data "aws_ami" "each" {
  for_each = toset(var.names)
  name     = each.value

  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "No AMI."
    }
  }
}

import {
  for_each = toset(var.names)
  to       = aws_instance.counted[each.key]
  id       = each.value
}

removed {
  from = aws_instance.old

  provisioner "local-exec" {
    when    = destroy
    command = "echo ${try(count.index, each.key)} ${self.id}"
  }
}

locals {
  # Iteration variables named as the objects are not references to them.
  counts = [for count in var.names : count]
  eaches = { for each, self in var.names : each => self }
}

output "names" {
  value = [for name in var.names : name]
}
