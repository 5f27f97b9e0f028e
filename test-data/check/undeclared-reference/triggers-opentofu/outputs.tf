output "main_id" {
  value = aws_vpc.main.id
}

output "legacy_id" {
  value = aws_vpc.legacy.id
}

output "legacy_cidr" {
  value = var.legacy_cidr
}
