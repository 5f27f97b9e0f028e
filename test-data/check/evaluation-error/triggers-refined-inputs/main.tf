# What is known of unknown inputs can make an error certain too: whatever
# var.name is, a JSON text starting with "?" is not JSON, and whatever
# var.names is, its length is not negative, so the index is 5.
variable "name" {
  type = string
}

variable "names" {
  type = list(string)
}

locals {
  not_json  = jsondecode("?${var.name}")
  past_end  = ["a", "b"][length(var.names) < -1 ? 1 : 5]
}

output "all" {
  value = [local.not_json, local.past_end]
}
