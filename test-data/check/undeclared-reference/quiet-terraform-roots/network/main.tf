variable "name" {
  type    = string
  default = "net"
}

output "subnet_ids" {
  value = [var.name]
}
