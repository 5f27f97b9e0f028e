# The included file exists; a search with a fallback never fails; a path
# known only by evaluation is not looked for; a read with a default.
include "common" {
  path = "./common/common.hcl"
}

include "root" {
  path = find_in_parent_folders("root-that-is-not-there.hcl", "fallback.hcl")
}

include "env" {
  path = "${local.env_dir}/env.hcl"
}

locals {
  env_dir = "."
  # A default is what Terragrunt returns when the file is not there.
  account = read_terragrunt_config("./account-not-there.hcl", { locals = {} })
}
