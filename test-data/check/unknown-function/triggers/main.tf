locals {
  id = guid()
}

output "id" {
  value = local.id
}
