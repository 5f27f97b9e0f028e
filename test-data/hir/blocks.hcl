top = 1

resource "aws_instance" "web" {
  ami = "ami-123"
  tags {
    Name = "web"
  }
  count = 2
}

bare label {
}

escaped "a\"b" {}

last = 2
