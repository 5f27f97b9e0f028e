resource "aws_vpc" "this" {}
