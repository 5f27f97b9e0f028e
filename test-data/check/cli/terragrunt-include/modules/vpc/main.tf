variable "region" {
  type = string
}

output "vpc_id" {
  value = "vpc-${var.region}"
}
