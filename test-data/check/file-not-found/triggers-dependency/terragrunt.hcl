# No unit in ./vpc: Terragrunt cannot read its outputs.
dependency "vpc" {
  config_path = "./vpc-not-there"
}

# Outputs read: skip_outputs is false.
dependency "db" {
  config_path  = "./db-not-there"
  skip_outputs = false
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
}
