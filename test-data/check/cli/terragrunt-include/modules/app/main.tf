variable "region" {
  type = string
}

variable "vpc_id" {
  type = string
}

variable "name" {
  type = string
}

output "url" {
  value = "https://${var.name}.${var.region}.example.com/${var.vpc_id}"
}
