output "vpc_id" {
  value = aws_vpc.main.id
}

output "zones" {
  value = data.aws_availability_zones.available.names
}

output "subnet_ids" {
  value = aws_subnet.private[*].id
}

output "name" {
  value = "${local.name}-${var.environment}"
}
