# No unit in ./vpc: Terragrunt cannot read its outputs.
dependency "vpc" {
  config_path = "./vpc-not-there"
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
}
