include "root" {
  path = "root.hcl"
}
