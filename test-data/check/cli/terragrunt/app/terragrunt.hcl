# The module beside it is the one deployed: no `terraform { source }`.
dependency "vpc" {
  config_path = "../vpc"
  mock_outputs = {
    vpc_id = "vpc-1234"
  }
}

locals {
  name = "app-${get_env("ENV", "dev")}"
}

inputs = {
  nmae           = local.name
  instance_count = "three"
  vpc_id         = dependency.vpc.outputs.vpc_id
}
