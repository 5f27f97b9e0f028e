test {
  parallel = true
}

variables {
  region = "us-east-1"
}

provider "aws" {
  region = "us-east-1"
}

variable "zone" {
  type    = string
  default = "a"
}

run "setup" {
  module {
    source = "./testing/setup"
  }
}

run "plan" {
  command         = plan
  expect_failures = [var.region]
  state_key       = "main"

  plan_options {
    mode    = refresh-only
    refresh = true
    replace = [aws_instance.web]
    target  = [aws_instance.web]
  }

  variables {
    region = "eu-west-1"
  }

  assert {
    condition     = true
    error_message = "never"
  }

  override_data {
    target = data.aws_ami.ubuntu
    values = {
      id = "ami-123"
    }
  }

  override_module {
    target  = module.network
    outputs = {
      vpc_id = "vpc-123"
    }
  }
}

mock_provider "aws" {
  alias  = "mock"
  source = "./testing/mocks"

  mock_resource "aws_instance" {
    defaults = {
      id = "i-123"
    }
  }

  mock_data "aws_ami" {
    defaults = {
      id = "ami-123"
    }
  }

  override_resource {
    target          = aws_instance.web
    override_during = plan
    values = {
      arn = "arn:aws:ec2:us-east-1:123:instance/i-123"
    }
  }
}

override_resource {
  target = aws_instance.web
  values = {}
}
