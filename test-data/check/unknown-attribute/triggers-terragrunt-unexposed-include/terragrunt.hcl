# Terragrunt's `include` holds only the exposed includes: without
# `expose = true`, `include.root` is no attribute of it.
include "root" {
  path = "./common/root.hcl"
}

inputs = {
  region = include.root.locals.region
}
