# Terraform ignores files whose names start with a dot: nothing here need
# exist.
output "ignored" {
  value = aws_instance.nowhere.id
}
