# Terragrunt's functions, Terraform's, a dependency's outputs and an
# exposed include's locals: nothing here is an error.
include "root" {
  path   = find_in_parent_folders("root.hcl")
  expose = true
}

terraform {
  source = "${get_repo_root()}//modules/app"

  extra_arguments "vars" {
    commands = get_terraform_commands_that_need_vars()
  }
}

dependency "vpc" {
  config_path = "../vpc"
  mock_outputs = {
    vpc_id = "vpc-1234"
  }
}

locals {
  env     = get_env("ENV", "dev")
  account = get_aws_account_id()
  commit  = run_cmd("--terragrunt-quiet", "git", "rev-parse", "HEAD")
  common  = read_terragrunt_config(find_in_parent_folders("common.hcl"))
  bucket  = "${local.env}-${local.account}-${path_relative_to_include()}"
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
  region = include.root.locals.region
  name   = "${local.bucket}-${substr(local.commit, 0, 7)}"
  tags   = merge(local.common.locals.tags, { dir = get_terragrunt_dir() })
}
