test {
  paralel = true
}

variables {
  region = "us-east-1"
}

run "plan" {
  comand = plan

  plan_options {
    mode   = refresh-only
    refrsh = true
  }

  assert {
    condition     = true
    error_mesage  = "never"
  }
}

mock_provider "aws" {
  alais = "mock"

  mock_resource "aws_instance" {
    default = {
      id = "i-123"
    }
  }
}

override_resource {
  target = aws_instance.web
  value  = {}
}

runs "misspelled" {
}
