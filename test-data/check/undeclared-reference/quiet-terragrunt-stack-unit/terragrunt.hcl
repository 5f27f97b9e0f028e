# A stack's unit that includes nothing: the stack's generated include
# (`autoinclude`) gives it its `dependency` blocks (Terragrunt's fixture
# `stacks/stack-deps-mock-local/units/iam`).
terraform {
  source = "."
}

inputs = {
  account_name = dependency.account.outputs.name
}
