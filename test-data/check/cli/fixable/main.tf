variable "names" {
  type = "list"
}

variable "region" {
  type = string
}

variable "subnets" {
  type = list(object({ id = string }))
}

locals {
  # Safe fixes: each writes the same value another way.
  first   = var.names.0
  all     = "${var.names}"
  nested  = "${"${var.region}"}"
  ids     = var.subnets.*.id[0]
  # An unsafe fix: a did-you-mean, a guess to review.
  misspelt = var.regoin
  # halite-ignore: interpolation-only
  kept = "${var.region}"
}

output "summary" {
  value = [local.first, local.all, local.nested, local.ids, local.misspelt, local.kept]
}
