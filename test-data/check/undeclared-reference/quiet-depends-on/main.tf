resource "aws_instance" "web" {
  count      = 2
  ami        = data.aws_ami.ubuntu.id
  depends_on = [aws_security_group.web, module.network, data.aws_ami.ubuntu]

  lifecycle {
    replace_triggered_by = [aws_instance.db[count.index].id, aws_security_group.web]
  }
}

resource "aws_instance" "db" {
  count = 2
  ami   = "ami-123"
}

resource "aws_security_group" "web" {
  for_each = toset(["a"])
  name     = each.key

  lifecycle {
    replace_triggered_by = [aws_instance.db[0]]
  }
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

module "network" {
  source     = "terraform-aws-modules/vpc/aws"
  depends_on = [aws_security_group.web]
}

output "id" {
  value      = aws_instance.web[0].id
  depends_on = [module.network, aws_instance.db]
}

check "health" {
  data "http" "home" {
    url        = "https://example.com"
    depends_on = [aws_instance.web]
  }

  assert {
    condition     = data.http.home.status_code == 200
    error_message = "Down."
  }
}
