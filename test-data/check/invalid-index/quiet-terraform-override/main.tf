# The override file gives the variable another type, which Terraform merges
# into its declaration: indexing it is valid, and the model, which does not
# read override files, must not judge the index by the type written here.
variable "ports" {
  type = string
}

locals {
  first = var.ports[0]
}

output "first" {
  value = local.first
}
