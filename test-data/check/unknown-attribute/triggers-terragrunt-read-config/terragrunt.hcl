# The file read_terragrunt_config reads has no local `regoin` and no
# input `zonee`.
locals {
  common = read_terragrunt_config("./common/common.hcl")
}

inputs = {
  region = local.common.locals.regoin
  zone   = local.common.inputs.zonee
}
