locals {
  loud  = upper("a", "b")
  parts = split(",")
}

service "web" {
  name  = local.loud
  parts = local.parts
}
