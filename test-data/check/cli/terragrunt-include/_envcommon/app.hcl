# What every app unit shares: its dependency on the VPC and its module.
dependency "vpc" {
  config_path = "${get_terragrunt_dir()}/../vpc"
  mock_outputs = {
    vpc_id = "vpc-1234"
  }
}

terraform {
  source = "../../modules//app"
}

locals {
  base_source_url = "../../modules//app"
}
