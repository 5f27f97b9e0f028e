include "base" {
  path = "base.hcl"
}

locals {
  region = "eu-west-1"
}
