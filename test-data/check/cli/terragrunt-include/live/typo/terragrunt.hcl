# A dependency and an exposed include's local misspelt.
include "root" {
  path   = find_in_parent_folders("root.hcl")
  expose = true
}

include "envcommon" {
  path = "${get_terragrunt_dir()}/../../_envcommon/app.hcl"
}

locals {
  name = "app-${include.root.locals.regoin}"
}

inputs = {
  vpc_id = dependency.vcp.outputs.vpc_id
  name   = local.name
}
