# The VPC unit deploys modules/vpc, which has no output `vpc_idd`.
include "root" {
  path = find_in_parent_folders("root.hcl")
}

include "envcommon" {
  path = "${get_terragrunt_dir()}/../../_envcommon/app.hcl"
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_idd
  name   = "output"
}
