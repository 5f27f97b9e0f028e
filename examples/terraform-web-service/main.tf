locals {
  name = "web-${var.environment}"
  tags = {
    Service     = "web"
    Environment = var.environment
  }
}

data "aws_ami" "debian" {
  most_recent = true
  owners      = ["136693071363"]

  filter {
    name   = "name"
    values = ["debian-12-amd64-*"]
  }
}

resource "aws_instance" "web" {
  count         = var.instance_count
  ami           = data.aws_ami.debian.id
  instance_type = var.environment == "production" ? "t3.medium" : "t3.micro"

  user_data = <<-EOT
    #!/bin/sh
    apt-get update && apt-get install -y nginx
    echo "Hello from ${local.name}-${count.index}" > /var/www/html/index.html
  EOT

  tags = merge(local.tags, { Name = "${local.name}-${count.index}" })
}
