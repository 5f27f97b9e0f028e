locals {
  region = "eu-west-1"
}

inputs = {
  zone = "eu-west-1a"
}
