resource "aws_vpc" "this" {
  cidr_block = var.cidr_block
  tags       = { Name = var.name }
}

resource "aws_subnet" "private" {
  count             = length(var.zones)
  vpc_id            = aws_vpc.this.id
  availability_zone = var.zones[count.index]
  cidr_block        = cidrsubnet(var.cidr_block, 8, count.index)
}

resource "aws_nat_gateway" "this" {
  count     = var.enable_nat ? 1 : 0
  subnet_id = aws_subnet.private[0].id
}
