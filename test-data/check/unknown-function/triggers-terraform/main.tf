# Functions of the standard library that Terraform does not have.
locals {
  size    = strlen("web")
  count   = int(2.5)
  cleaned = regex_replace("a-b", "-", "_")
}

output "all" {
  value = [local.size, local.count, local.cleaned]
}
