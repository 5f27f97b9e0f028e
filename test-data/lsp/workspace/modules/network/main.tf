variable "cidr" {
  description = "The network's address range."
  type        = string
}

variable "name" {
  type = string
}

output "id" {
  description = "The network's identifier."
  value       = "${var.name}-${var.cidr}"
}
