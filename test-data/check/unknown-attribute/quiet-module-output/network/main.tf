variable "cidr" {
  type = string
}

output "vpc_id" {
  value = "vpc-${var.cidr}"
}

output "subnet_ids" {
  value = ["a", "b"]
}
