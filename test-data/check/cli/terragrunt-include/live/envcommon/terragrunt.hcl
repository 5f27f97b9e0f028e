# The shared file found beside the root configuration, as Terragrunt's
# live example includes it; its exposed local misspelt.
include "envcommon" {
  path   = "${dirname(find_in_parent_folders("root.hcl"))}/_envcommon/app.hcl"
  expose = true
}

inputs = {
  name   = "envcommon"
  source = include.envcommon.locals.base_source_ur
}
