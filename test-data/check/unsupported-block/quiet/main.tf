# Blocks a provider defines, at any depth, and dynamic blocks among them.
resource "aws_security_group" "web" {
  name = "web"

  ingress {
    from_port = 443
    to_port   = 443
    protocol  = "tcp"

    nested_anything {
      deeper {
        value = 1
      }
    }
  }

  dynamic "egress" {
    for_each = [80, 443]
    content {
      from_port = egress.value
      to_port   = egress.value

      dynamic "inner" {
        for_each = []
        labels   = []
        content {}
      }
    }
  }

  timeouts {
    create = "5m"
  }
}

provider "google" {
  project = "example"

  batching {
    enable_batching = true
  }
}

module "network" {
  source = "./network"
  tags   = { name = aws_security_group.web.name }
}
