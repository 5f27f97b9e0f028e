# A syntax error: the blocks after it are not in the module's index, so
# references to them are not reported as undeclared (Terraform itself stops
# at the syntax error).
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
  tags = {
}

resource "aws_subnet" "a" {
  vpc_id = aws_vpc.main.id
}
