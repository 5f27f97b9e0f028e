# `name` is set neither here nor in an included file; `region` is the
# root's.
include "root" {
  path = find_in_parent_folders("root.hcl")
}

include "envcommon" {
  path = "${get_terragrunt_dir()}/../../_envcommon/app.hcl"
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
}
