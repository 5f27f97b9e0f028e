# None of these files exists: Terragrunt stops at each include, and at
# read_terragrunt_config without a default.
include "root" {
  path = "./not-there.hcl"
}

include "env" {
  path = "${get_terragrunt_dir()}/env-not-there.hcl"
}

locals {
  account = read_terragrunt_config("./account-not-there.hcl")
}

inputs = {
  name = "app"
}
