variable {
  type = string
}

resource "aws_instance" {
  ami = "ami-123"
}

locals "extra" {
  name = "web"
}

output "a" "b" {
  value = 1
}

resource "aws_instance" "web" {
  ami = "ami-123"

  provisioner {
    command = "echo"
  }

  dynamic {
    for_each = []
    content {}
  }
}
