mock_data "aws_ami" {
  defaults = {
    id = "ami-123"
  }
}

mock_resource "aws_instance" {
  defaults = {
    id = "i-123"
  }
  override_during = apply
}

override_data {
  target = data.aws_ami.ubuntu
  values = {
    id = "ami-123"
  }
}
