# The module the `vpc` unit deploys has no output `vpc_idd`.
dependency "vpc" {
  config_path = "./vpc"
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_idd
}
