check "health" {
  data "http" "home" {
    url = "https://example.com"
  }
}

resource "aws_instance" "web" {
  ami = "ami-123"

  dynamic "ebs_block_device" {
    for_each = ["sdb"]
  }
}
