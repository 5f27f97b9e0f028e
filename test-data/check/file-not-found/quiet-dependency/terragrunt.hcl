# Units that exist (named by their directory or their file, native or
# JSON), and missing ones whose outputs are not read.
dependency "vpc" {
  config_path = "./vpc"
}

dependency "vpc_file" {
  config_path = "./vpc/terragrunt.hcl"
}

dependency "json" {
  config_path = "./json"
}

dependency "skipped" {
  config_path  = "./skipped-not-there"
  skip_outputs = true
}

dependency "disabled" {
  config_path = "./disabled-not-there"
  enabled     = false
}

inputs = {
  name = "app"
}
