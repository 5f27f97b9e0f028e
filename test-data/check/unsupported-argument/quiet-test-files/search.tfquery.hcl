variable "limit" {
  type    = number
  default = 10
}

locals {
  tag = "web"
}

provider "aws" {
  region = "us-east-1"
}

list "aws_instance" "all" {
  provider         = aws
  include_resource = true
  limit            = var.limit

  config {
    filter {
      name   = "tag:Name"
      values = [local.tag]
    }
  }
}
