locals {
  region = "eu-west-1"
}
