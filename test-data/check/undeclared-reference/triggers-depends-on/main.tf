# depends_on and replace_triggered_by name objects; Terraform validates
# each against the module's declarations.
resource "aws_instance" "web" {
  ami        = "ami-123"
  depends_on = [aws_security_group.wbe, module.netwrk]

  lifecycle {
    replace_triggered_by = [aws_instance.db.id, null_resource.trigger]
  }
}

resource "aws_instance" "db" {
  ami = "ami-123"
}

resource "aws_security_group" "web" {
  name = "web"
}

module "network" {
  source     = "terraform-aws-modules/vpc/aws"
  depends_on = [data.aws_ami.ubuntu]
}

output "id" {
  value      = aws_instance.web.id
  depends_on = [aws_instance.missing]
}
