# Two syntax errors: a list without a comma between its items, and a block
# that is never closed.
allowed = ["10.0.0.0/8" "192.168.0.0/16"]

resource "aws_instance" "web" {
  ami = "ami-123456"
