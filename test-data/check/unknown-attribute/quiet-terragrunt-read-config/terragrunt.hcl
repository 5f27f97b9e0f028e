# Names the read file declares; a name under try; a file that is not
# there (its default is the value); a file with an include (whose inputs
# merge in); a file with no locals and inputs not known without
# evaluation; a path not known without evaluation.
locals {
  common   = read_terragrunt_config("./common/common.hcl")
  missing  = read_terragrunt_config("./common/none.hcl", { locals = { anything = 1 } })
  included = read_terragrunt_config("./common/included.hcl")
  computed = read_terragrunt_config("./common/computed.hcl")
  dynamic  = read_terragrunt_config("${get_env("DIR", ".")}/common/common.hcl")
}

inputs = {
  region   = local.common.locals.region
  zone     = local.common.inputs.zone
  maybe    = try(local.common.locals.other, "none")
  anything = local.missing.locals.anything
  account  = local.included.inputs.zone
  extra    = local.computed.locals.x
  b        = local.computed.inputs.b
  d        = local.dynamic.locals.whatever
}
