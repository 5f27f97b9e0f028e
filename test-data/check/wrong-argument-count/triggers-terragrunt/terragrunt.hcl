# Terragrunt's functions take the arguments Terragrunt says they take.
locals {
  dir  = get_terragrunt_dir("..")
  root = find_in_parent_folders()
}
