# An override file replaces the backend; it does not add one.
terraform {
  backend "local" {}
}

provider "aws" {
  region = "eu-west-1"
}
