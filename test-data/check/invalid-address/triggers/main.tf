resource "aws_instance" "web" {
  ami = "ami-123"
}

module "network" {
  source = "./network"
}

# A module moved to a resource.
moved {
  from = module.old
  to   = aws_instance.web
}

# Not a static reference.
moved {
  from = aws_instance.old[local.key]
  to   = aws_instance.web
}

# A resource type without its name.
moved {
  from = aws_instance
  to   = aws_instance.web
}

# A reserved root.
moved {
  from = var.old
  to   = aws_instance.web
}

# Only managed resources can be imported.
import {
  to = data.aws_ami.ubuntu
  id = "ami-123"
}

# A module is not a resource.
import {
  to = module.network
  id = "vpc-123"
}

# A removed block takes no instance keys.
removed {
  from = aws_instance.gone[0]

  lifecycle {
    destroy = false
  }
}

# Data sources are never destroyed.
removed {
  from = data.aws_ami.old

  lifecycle {
    destroy = false
  }
}

# Extra steps after the key.
moved {
  from = aws_instance.a[0].b
  to   = aws_instance.web
}
