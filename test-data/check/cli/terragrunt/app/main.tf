variable "name" {
  type = string
}

variable "instance_count" {
  type    = number
  default = 1
}

variable "vpc_id" {
  type = string
}

output "name" {
  value = var.name
}
