# The parts of a type constraint are no functions outside one: in a
# local, `object` and `optional` are calls of functions Terraform does not
# have, in the same file as a variable whose type holds them.
variable "rules" {
  type = list(object({
    name = optional(string)
  }))
  default = []
}

locals {
  shape = object({ name = "a" })
  named = optional("a")
}

output "shapes" {
  value = [local.shape, local.named, var.rules]
}
