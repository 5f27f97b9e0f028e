# References that meet again without going round: diamonds, chains through
# resources, a variable's validation reading the variable, a resource
# reading another resource's computed attributes both ways through
# different attributes, and the meta-arguments.
variable "names" {
  type = list(string)

  validation {
    condition     = length(var.names) > 0
    error_message = "At least one name."
  }
}

locals {
  base   = "app"
  left   = "${local.base}-left"
  right  = "${local.base}-right"
  both   = [local.left, local.right, local.base]
  lookup = { for name in local.both : name => upper(name) }
}

resource "aws_security_group" "a" {
  name = local.left
}

resource "aws_security_group" "b" {
  name        = local.right
  description = aws_security_group.a.name
}

resource "aws_security_group_rule" "a_from_b" {
  security_group_id        = aws_security_group.a.id
  source_security_group_id = aws_security_group.b.id
  type                     = "ingress"
  from_port                = 443
  to_port                  = 443
  protocol                 = "tcp"
}

resource "aws_security_group_rule" "b_from_a" {
  security_group_id        = aws_security_group.b.id
  source_security_group_id = aws_security_group.a.id
  type                     = "ingress"
  from_port                = 443
  to_port                  = 443
  protocol                 = "tcp"
}

resource "aws_instance" "web" {
  count         = length(var.names)
  ami           = "ami-123"
  instance_type = "t3.micro"
  tags          = merge(local.lookup, { Name = var.names[count.index] })

  depends_on = [aws_security_group_rule.a_from_b]

  lifecycle {
    replace_triggered_by = [aws_security_group.a]
  }

  provisioner "local-exec" {
    command = "echo ${self.private_ip}"
  }
}

output "ids" {
  value = aws_instance.web[*].id
}
