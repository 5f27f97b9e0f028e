output "first" {
  value = aws_instance.web.0.id
}

output "in_template" {
  value = "first: ${aws_instance.web.1.private_ip}"
}

output "after_full_splat" {
  value = aws_instance.web[*].tags.0
}
