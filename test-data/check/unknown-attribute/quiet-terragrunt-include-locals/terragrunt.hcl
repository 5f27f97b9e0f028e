# An exposed include's locals are `include.NAME.locals`; one not exposed
# is not read here.
include "root" {
  path   = "./common/root.hcl"
  expose = true
}

inputs = {
  region = include.root.locals.region
}
