output "ids" {
  value = aws_instance.web[*].id
}

output "first_id" {
  value = aws_instance.web[*].id[0]
}

output "product" {
  value = var.a * var.b
}
