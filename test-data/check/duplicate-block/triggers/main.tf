resource "aws_instance" "web" {
  ami = "ami-123"

  lifecycle {
    create_before_destroy = true
  }

  lifecycle {
    prevent_destroy = true
  }

  connection {
    host = "a"
  }

  connection {
    host = "b"
  }

  dynamic "ebs_block_device" {
    for_each = ["sdb"]
    content {
      device_name = "a"
    }
    content {
      device_name = "b"
    }
  }
}

check "health" {
  data "http" "a" {
    url = "https://a.example.com"
  }

  data "http" "b" {
    url = "https://b.example.com"
  }

  assert {
    condition     = data.http.a.status_code == 200
    error_message = "Down."
  }
}
