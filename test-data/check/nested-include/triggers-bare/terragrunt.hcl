include "root" {
  path = "./common/root.hcl"
}
