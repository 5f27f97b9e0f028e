# Mocks that fit (a number converts to a string), mocks only `validate`
# may read (it reads no variable values), and a mock not known without
# evaluation.
terraform {
  source = "./module"
}

dependency "vpc" {
  config_path = "./vpc"
  mock_outputs = {
    subnet_ids = ["subnet-mock"]
    vpc_id     = 42
  }
}

dependency "other" {
  config_path                             = "./other"
  mock_outputs_allowed_terraform_commands = ["validate"]
  mock_outputs = {
    subnet_ids = "subnet-mock"
    vpc_id     = get_env("VPC_ID")
  }
}

inputs = {
  subnet_ids = dependency.other.outputs.subnet_ids
  vpc_id     = dependency.vpc.outputs.vpc_id
}

locals {
  subnet_ids = dependency.vpc.outputs.subnet_ids
  vpc_id     = dependency.other.outputs.vpc_id
}
