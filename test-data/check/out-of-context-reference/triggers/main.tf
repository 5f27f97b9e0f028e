variable "names" {
  type = list(string)
}

locals {
  first = count.index
  key   = each.key
}

resource "aws_instance" "web" {
  ami = "ami-${count.index}"
  tags = {
    Name = each.value
  }

  lifecycle {
    precondition {
      condition     = self.ami != ""
      error_message = "The AMI must be set."
    }
  }
}

resource "aws_instance" "many" {
  count = length(var.names) + count.index
  ami   = "ami-${count.index}"
  name  = count.name
}

module "each" {
  source   = "./child"
  for_each = toset(var.names)
  name     = each.val
}

output "address" {
  value = self.private_ip
}
