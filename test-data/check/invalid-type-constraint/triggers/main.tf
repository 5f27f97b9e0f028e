variable "name" {
  type = strin
}

output "name" {
  value = var.name
}
