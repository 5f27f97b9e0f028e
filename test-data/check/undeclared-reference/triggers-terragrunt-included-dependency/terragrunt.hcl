# Neither the unit nor the file it includes declares `dependency "vcp"`.
include "common" {
  path = "./common/deps.hcl"
}

inputs = {
  vpc_id = dependency.vcp.outputs.vpc_id
}
