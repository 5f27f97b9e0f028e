resource "aws_instance" "web" {
  ami = "ami-123"

  tags {
    Name = "web"
  }
}

locals {}
empty "x" {
}
bare label {
  a = 1
}
