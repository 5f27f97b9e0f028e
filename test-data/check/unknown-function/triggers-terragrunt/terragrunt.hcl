# A misspelt Terragrunt function: Terragrunt's dialect knows every function.
include "root" {
  path = find_in_parent_folder("root.hcl")
}

inputs = {
  region = get_env("AWS_REGION", "us-east-1")
}
