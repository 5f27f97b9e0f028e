# Two resources whose arguments read each other: Terraform rejects the
# configuration ("Cycle: aws_instance.a, aws_instance.b").
resource "aws_instance" "a" {
  ami           = "ami-123"
  instance_type = aws_instance.b.instance_type
}

resource "aws_instance" "b" {
  ami           = aws_instance.a.ami
  instance_type = aws_instance.a.instance_type
}

# A local that reads itself through a resource.
locals {
  name = aws_security_group.web.name
}

resource "aws_security_group" "web" {
  name = "${local.name}-web"
}
