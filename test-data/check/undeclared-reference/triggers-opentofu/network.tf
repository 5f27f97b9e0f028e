# Terraform's version, which OpenTofu ignores beside `network.tofu`: what
# only it declares is not declared for OpenTofu.
variable "legacy_cidr" {
  type = string
}

resource "aws_vpc" "legacy" {
  cidr_block = var.legacy_cidr
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}
