# No root-not-there.hcl above this directory, and no unit in ../vpc or
# ../cache (the included file's dependency): Terragrunt stops at each.
# The search with a fallback and the dependency on ../db, which is a
# unit, are fine.
include "root" {
  path = find_in_parent_folders("root-not-there.hcl")
}

include "env" {
  path = find_in_parent_folders("env-not-there.hcl", "${get_terragrunt_dir()}/../db/terragrunt.hcl")
}

include "deps" {
  path = "../common/deps.hcl"
}

dependency "vpc" {
  config_path = "../vpc"
}

dependency "db" {
  config_path = "../db"

  mock_outputs = {
    address = "db.example.com"
  }
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
  db     = dependency.db.outputs.address
}
