# `region` is set by the included file's inputs, which merge into the
# unit's.
include "root" {
  path = "./common/root.hcl"
}

terraform {
  source = "./module"
}

inputs = {
  name = "app"
}
