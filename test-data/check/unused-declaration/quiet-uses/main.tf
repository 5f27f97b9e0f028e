variable "extra_tags" {
  type = list(string)
}

variable "names" {
  type = list(string)
}

variable "instances" {
  type = list(object({ id = string }))
}

variable "suffix" {}

variable "rules" {
  type = list(object({ port = number }))
}

locals {
  # Used only inside concat().
  base_tags = ["a"]
  all_tags  = concat(local.base_tags, var.extra_tags)
  # Used only inside a for expression.
  prefix = "web-"
  named  = [for name in var.names : "${local.prefix}${name}"]
  # Used only through a splat.
  ids = var.instances[*].id
  # Used only inside a template.
  label = "server-${var.suffix}"
  # Used only after a dynamic index.
  index = 0
  first = var.instances[local.index].id
  # Used only in a dynamic block's content.
  protocol = "tcp"
}

resource "aws_security_group" "web" {
  dynamic "ingress" {
    for_each = var.rules
    content {
      from_port = ingress.value.port
      protocol  = local.protocol
    }
  }
}

output "all" {
  value = [local.all_tags, local.named, local.ids, local.label, local.first]
}
