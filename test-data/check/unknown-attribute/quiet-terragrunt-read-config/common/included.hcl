include "root" {
  path = "common.hcl"
}

locals {
  account = "123"
}
