variable "cidr_block" {
  type = string
}

variable "name" {
  default = "main"
}

output "id" {
  value = "${var.name}-${var.cidr_block}"
}
