# Errors of HCL itself that hold whatever the variables are: result types
# a conditional cannot unify, and a for expression producing a key twice.
variable "enabled" {
  type = bool
}

variable "name" {
  type = string
}

variable "settings" {
  type = object({ name = string })
}

locals {
  # A tuple and an object never unify, whatever the condition and the
  # names are.
  names = var.enabled ? [var.name] : { a = var.name }
  # Nor does a string with a tuple (tuples of different lengths would,
  # into a list).
  shape = var.enabled ? var.name : [var.name, "b"]
  # Both items have the key "same".
  keyed = { for n in [var.name, var.name] : "same" => n }
  # The variable's type has no attribute "nmae" (an unknown-attribute).
  typo = var.settings.nmae
}

output "all" {
  value = [local.names, local.shape, local.keyed, local.typo]
}
