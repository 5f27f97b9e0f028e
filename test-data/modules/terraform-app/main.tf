locals {
  name_prefix = "app-${var.environment}"
  common_tags = {
    Project     = "halite"
    Environment = var.environment
    Workspace   = terraform.workspace
  }
  zones       = slice(data.aws_availability_zones.available.names, 0, 2)
  subnet_ids  = module.network.private_subnet_ids
  bucket_arns = [for bucket in aws_s3_bucket.this : bucket.arn]
  port_count  = length(var.ingress_ports)
  cidrs       = [for i in range(2) : cidrsubnet("10.0.0.0/16", 8, i)]
  user_data   = templatefile("${path.module}/user_data.sh", { region = var.region })
  encoded     = base64encode(jsonencode({ ports = var.ingress_ports }))
}

data "aws_availability_zones" "available" {
  state = "available"
}

data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-*"]
  }
}

module "network" {
  source = "./modules/network"

  name       = local.name_prefix
  cidr_block = "10.0.0.0/16"
  zones      = local.zones
}

resource "aws_security_group" "web" {
  name   = "${local.name_prefix}-web"
  vpc_id = module.network.vpc_id

  dynamic "ingress" {
    for_each = var.ingress_ports
    content {
      from_port   = ingress.value
      to_port     = ingress.value
      protocol    = "tcp"
      cidr_blocks = ["0.0.0.0/0"]
    }
  }

  egress {
    from_port   = 0
    to_port     = 0
    protocol    = "-1"
    cidr_blocks = ["0.0.0.0/0"]
  }

  tags = local.common_tags
}

resource "aws_instance" "web" {
  count = var.instance_count

  ami                    = data.aws_ami.ubuntu.id
  instance_type          = "t3.micro"
  subnet_id              = element(local.subnet_ids, count.index)
  vpc_security_group_ids = [aws_security_group.web.id]
  user_data              = local.user_data

  tags = merge(local.common_tags, {
    Name = "${local.name_prefix}-web-${count.index}"
  })

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags, user_data]
  }

  depends_on = [module.network]
}

resource "aws_s3_bucket" "this" {
  for_each = var.buckets

  bucket = "${local.name_prefix}-${each.key}"
  tags   = merge(local.common_tags, { Versioned = tostring(each.value.versioning) })
}

resource "aws_s3_bucket" "replica" {
  provider = aws.replica
  bucket   = "${local.name_prefix}-replica"
}

resource "aws_eip" "web" {
  count    = var.instance_count
  instance = aws_instance.web[count.index].id
  domain   = "vpc"

  provisioner "local-exec" {
    command = "echo ${self.public_ip} >> ips.txt"
  }

  provisioner "local-exec" {
    when       = destroy
    on_failure = continue
    command    = "echo destroying ${self.id}"
  }
}

moved {
  from = aws_instance.app
  to   = aws_instance.web
}
