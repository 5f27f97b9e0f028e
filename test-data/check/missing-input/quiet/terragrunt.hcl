# An included file may set `name`.
include "root" {
  path = find_in_parent_folders("root.hcl")
}

terraform {
  source = "./module"
}

inputs = {
  region = "us-east-1"
}
