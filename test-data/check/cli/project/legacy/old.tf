output "ids" {
  value = aws_instance.web.*.id
}

output "first" {
  value = aws_instance.web.0.id
}
