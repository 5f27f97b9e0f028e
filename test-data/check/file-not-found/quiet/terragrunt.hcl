# The included file exists; a search with a fallback never fails; a path
# known only by evaluation is not looked for.
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
}
