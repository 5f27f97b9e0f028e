# A variable's type is a type constraint, not a call: `list`, `object` and
# `optional` are no functions of Terraform's, and no finding here.
variable "rules" {
  type = list(object({
    name     = string
    priority = optional(number, 100)
  }))
  default = []
}

output "names" {
  value = [for rule in var.rules : upper(rule.name)]
}

# An output's type constraint (`terraform { experiments }` of 1.x) too.
output "typed" {
  type = object({
    name = optional(string)
  })
  value = { name = "a" }
}
