# The included file has no local `regoin`.
include "root" {
  path   = "./common/root.hcl"
  expose = true
}

inputs = {
  region = include.root.locals.regoin
}
