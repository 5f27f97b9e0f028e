# Terraform's version: OpenTofu reads `main.tofu` instead, so this
# resource is no duplicate of that one.
resource "aws_vpc" "main" {
  cidr_block = "10.1.0.0/16"
}
