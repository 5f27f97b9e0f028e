variable "name" {
  type = string
}

output "subnet" {
  value = aws_subnet.a.id
}

output "name" {
  # Still reported: variables are declared by their own blocks.
  value = var.nmae
}
