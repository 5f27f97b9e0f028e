# The issue's false alarm: the dependency comes from the included file.
include "common" {
  path = "./common/deps.hcl"
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
}
