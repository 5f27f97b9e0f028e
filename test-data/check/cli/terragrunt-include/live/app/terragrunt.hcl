# The dependency and the module come from the included file, `region`
# from the root's inputs: nothing to report.
include "root" {
  path   = find_in_parent_folders("root.hcl")
  expose = true
}

include "envcommon" {
  path = "${get_terragrunt_dir()}/../../_envcommon/app.hcl"
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
  name   = "app-${include.root.locals.region}"
}
