output "vpc_id" {
  value = "vpc-1"
}
