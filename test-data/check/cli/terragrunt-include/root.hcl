# Every unit includes this file (find_in_parent_folders("root.hcl")).
locals {
  region = "eu-west-1"
}

inputs = {
  region = local.region
}
