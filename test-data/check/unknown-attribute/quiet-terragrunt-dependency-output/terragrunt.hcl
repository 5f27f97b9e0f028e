# An output the module has; a remote module's outputs are not known here;
# with `skip_outputs`, the outputs are the mocks; an output the mocks give
# is read where the unit has no state yet; one merged from the mocks
# (`mock_outputs_merge_strategy_with_state`) may be any; `try` catches a
# missing one (Terragrunt's fixtures `skip-dependencies`,
# `terragrunt-info-error`, `stacks/stack-deps-dep-mock-merge`).
dependency "vpc" {
  config_path = "./vpc"
  mock_outputs = {
    subnet = "subnet-1"
  }
}

dependency "remote" {
  config_path = "./remote"
}

dependency "skipped" {
  config_path  = "./vpc"
  skip_outputs = true
  mock_outputs = {
    subnet = "subnet-1"
  }
}

dependency "merged" {
  config_path                            = "./vpc"
  mock_outputs_merge_strategy_with_state = "shallow"
}

inputs = {
  vpc_id   = dependency.vpc.outputs.vpc_id
  mocked   = dependency.vpc.outputs.subnet
  net      = dependency.remote.outputs.anything
  subnet   = dependency.skipped.outputs.subnet
  merged   = dependency.merged.outputs.anything
  fallback = try(dependency.vpc.outputs.zone, "none")
}
