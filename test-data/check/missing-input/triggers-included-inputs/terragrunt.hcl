# Every include is read, and neither it nor the unit sets `region`.
include "root" {
  path = "./common/root.hcl"
}

terraform {
  source = "./module"
}

inputs = {
  name = "app"
}
