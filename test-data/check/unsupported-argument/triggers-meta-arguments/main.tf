# The meta-arguments of resources and the arguments Terraform reserves in a
# provider block; the resource's own arguments are the provider's and are
# not checked.
provider "aws" {
  region = "eu-west-1"
  count  = 2
}

resource "aws_instance" "web" {
  ami           = "ami-123"
  not_a_real_argument_but_the_providers = true

  lifecycle {
    prevent_destory = true
  }

  provisioner "local-exec" {
    command = "echo hello"
    when    = destroy
  }
}

removed {
  from = aws_instance.old

  lifecycle {
    destroy        = false
    prevent_destroy = true
  }
}
