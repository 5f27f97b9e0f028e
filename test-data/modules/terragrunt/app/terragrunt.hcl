include "root" {
  path = find_in_parent_folders("root.hcl")
}

locals {
  name = "app"
}

inputs = {
  name     = local.name
  replicas = 2
}
