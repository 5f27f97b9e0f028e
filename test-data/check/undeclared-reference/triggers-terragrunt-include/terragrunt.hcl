# Terragrunt's docs fixture test/fixtures/docs/02-overview/step-05-exposed-includes,
# with `include.root` misspelt: an include is the unit's own block.
include "root" {
  path   = find_in_parent_folders("root.hcl")
  expose = true
}

inputs = {
  region = include.roto.locals.region
}
