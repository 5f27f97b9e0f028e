output "subnet_ids" {
  value = ["subnet-1"]
}

output "vpc_id" {
  value = "vpc-1"
}
