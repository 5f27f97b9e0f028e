# Misspelled functions where evaluation with unknown inputs does not reach
# them: `terraform validate` reports each all the same.
variable "create" {
  type    = bool
  default = true
}

variable "names" {
  type    = list(string)
  default = []
}

variable "endpoints" {
  type    = map(any)
  default = {}
}

locals {
  # Behind an unknown condition's short circuit, in a `for` body.
  endpoints = { for k, v in var.endpoints : k => v if var.create && tyr(v.create, true) }
  # In a branch of an unknown condition.
  first = var.create ? toset(slcie(var.names, 0, 1)) : []
}

resource "aws_iam_role" "this" {
  name = "x"

  # In a `dynamic` block's `for_each`.
  dynamic "inline_policy" {
    for_each = lnegth(var.names) > 0 ? [1] : []
    content {
      name = "p"
    }
  }
}

output "all" {
  value = [local.endpoints, local.first]
}
