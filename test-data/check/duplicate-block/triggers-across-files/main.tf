# A second backend, required_providers and default aws provider, in
# another file of the same module.
terraform {
  backend "local" {}

  required_providers {
    random = {
      source = "hashicorp/random"
    }
  }
}

provider "aws" {
  region = "eu-west-1"
}

provider "aws" {
  alias  = "east"
  region = "us-east-1"
}

provider "aws" {
  alias  = "east"
  region = "us-east-2"
}
