# Two includes side by side, and a file read by read_terragrunt_config
# that includes another: one level each.
include "root" {
  path = "./common/root.hcl"
}

include "base" {
  path = "./common/base.hcl"
}

locals {
  other = read_terragrunt_config("./common/other.hcl")
}

inputs = {
  name = "app"
}
