variable "name" {
  type = string
}

resource "aws_instance" "web" {
  ami = var.name

  provisioner "local-exec" {
    command = "echo"
  }

  dynamic "ebs_block_device" {
    for_each = []
    content {}
  }
}

locals {
  name = "web"
}

output "a" {
  value = local.name
}
