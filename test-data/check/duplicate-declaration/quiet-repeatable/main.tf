provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

terraform {
  required_version = ">= 1.0"
}

moved {
  from = aws_instance.old
  to   = aws_instance.web
}

moved {
  from = aws_instance.older
  to   = aws_instance.web
}

resource "aws_instance" "web" {
  ami = "ami-123"
}
