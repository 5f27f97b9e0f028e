# Declared locals and variables, the iterator under its own name and a
# `for` expression's variables in `dynamic` blocks: nothing to report.
locals {
  partition = "aws"
}

variable "rules" {
  type    = list(object({ port = number }))
  default = []
}

resource "aws_security_group" "this" {
  name = "web-${local.partition}"

  dynamic "ingress" {
    for_each = var.rules
    iterator = rule

    content {
      from_port   = rule.value.port
      to_port     = rule.value.port
      protocol    = "tcp"
      cidr_blocks = [for local_cidr in ["10.0.0.0/8"] : local_cidr]
      description = "${local.partition} ${rule.key}"
    }
  }
}
