module "network" {
  source = "terraform-aws-modules/vpc/aws"
}

resource "aws_instance" "web" {
  ami = "ami-123"
}

output "ids" {
  value = aws_instance.web.id
}
