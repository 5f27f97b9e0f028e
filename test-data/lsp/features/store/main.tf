variable "name" {
  type = string
}

output "id" {
  value = "store-${var.name}"
}
