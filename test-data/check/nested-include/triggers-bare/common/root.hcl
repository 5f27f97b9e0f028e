# A bare include, with a path Terragrunt finds only when it runs: named as
# Terragrunt names it, "(bare include)".
include {
  path = find_in_parent_folders("account.hcl")
}
