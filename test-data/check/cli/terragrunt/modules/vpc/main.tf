variable "cidr_block" {
  type = string
}

output "vpc_id" {
  value = "vpc-${var.cidr_block}"
}
