check "health" {
  assert {
    condition     = aws_instance.web.ami != ""
    error_message = "No AMI."
  }
}

resource "aws_instance" "web" {
  ami = "ami-123"

  dynamic "ebs_block_device" {
    for_each = ["sdb"]
    content {
      device_name = ebs_block_device.value
    }
  }
}
