locals {
  region = "us-east-1"
}

inputs = {
  region = local.region
}
