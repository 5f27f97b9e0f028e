variable "region" {
  type = string
}

locals {
  name = "app"
}

component "app" {
  source = "./app"
}

provider "aws" "main" {
  config {}
}

required_providers {
  aws = {
    source  = "hashicorp/aws"
    version = "~> 5.0"
  }
}
