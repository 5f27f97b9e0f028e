# An output the module has; a remote module's outputs are not known here;
# with `skip_outputs`, the outputs are the mocks.
dependency "vpc" {
  config_path = "./vpc"
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

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
  net    = dependency.remote.outputs.anything
  subnet = dependency.skipped.outputs.subnet
}
