variable "name" {
  type = string

  validation {
    condition     = length(var.name) > 0
    error_message = "Empty."
  }

  validation {
    condition     = length(var.name) < 64
    error_message = "Too long."
  }
}

resource "aws_instance" "web" {
  ami = var.name

  provisioner "local-exec" {
    command = "echo one"
  }

  provisioner "local-exec" {
    command = "echo two"
  }

  ebs_block_device {
    device_name = "sdb"
  }

  ebs_block_device {
    device_name = "sdc"
  }

  lifecycle {
    precondition {
      condition     = true
      error_message = "One."
    }

    precondition {
      condition     = true
      error_message = "Two."
    }
  }
}
