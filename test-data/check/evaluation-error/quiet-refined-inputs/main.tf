# Inputs are unknown, and what is known of them (go-cty's refinements)
# decides what can still fail. None of these can: guards that short-
# circuit, JSON texts whose known start makes them arrays, objects or
# numbers, lengths that are never negative and templates that are never
# null (so each index picks an element that exists).
variable "name" {
  type = string
}

variable "names" {
  type = list(string)
}

variable "settings" {
  type = object({ enabled = bool, port = number })
}

locals {
  guard_or     = var.settings == null || var.settings.port > 0
  guard_and    = var.settings != null && var.settings.enabled
  as_list      = jsondecode("[${var.name}]")
  as_object    = jsondecode("{\"name\": ${var.name}}")
  as_number    = jsondecode("-${var.name}") + 1
  never_less   = ["a", "b"][length(var.names) > -1 ? 1 : 5]
  never_null   = ["a", "b"]["id-${var.name}" != null ? 0 : 5]
  prefix_known = startswith("id-${var.name}", "id-")
}

output "all" {
  value = [
    local.guard_or, local.guard_and, local.as_list, local.as_object, local.as_number, local.never_less,
    local.never_null, local.prefix_known,
  ]
}
