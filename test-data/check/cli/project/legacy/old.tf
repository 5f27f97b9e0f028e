output "ids" {
  value = aws_instance.web.*.id
}

output "first" {
  value = aws_instance.web.0.id
}

# Declared here too: this folder is a module of its own.
resource "aws_instance" "web" {
  count = 2
}
