# One terraform block per file is fine, each with other settings.
terraform {
  required_version = ">= 1.5"
}

provider "aws" {
  alias  = "east"
  region = "us-east-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
