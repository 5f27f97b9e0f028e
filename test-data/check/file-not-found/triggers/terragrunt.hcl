# Neither file exists: Terragrunt stops at each include.
include "root" {
  path = "./not-there.hcl"
}

include "env" {
  path = "${get_terragrunt_dir()}/env-not-there.hcl"
}

inputs = {
  name = "app"
}
