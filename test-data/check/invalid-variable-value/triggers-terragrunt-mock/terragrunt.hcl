# Until vpc is applied, `plan` passes the mock as `subnet_ids`: a string
# where the module takes a list, which Terraform refuses.
terraform {
  source = "./module"
}

dependency "vpc" {
  config_path = "./vpc"
  mock_outputs = {
    subnet_ids = "subnet-mock"
    vpc_id     = "vpc-mock"
  }
}

inputs = {
  subnet_ids = dependency.vpc.outputs.subnet_ids
  vpc_id     = dependency.vpc.outputs.vpc_id
}
