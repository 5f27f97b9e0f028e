# The included file includes another: Terragrunt reads one level only.
include "root" {
  path = "./common/root.hcl"
}

inputs = {
  name = "app"
}
