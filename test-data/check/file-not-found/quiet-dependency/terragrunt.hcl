# A unit that exists, and missing ones whose outputs are not read.
dependency "vpc" {
  config_path = "./vpc"
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
