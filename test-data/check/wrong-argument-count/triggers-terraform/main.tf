# Terraform's functions, each with its own signature.
locals {
  shout    = upper("x", "y")
  subnet   = cidrsubnet("10.0.0.0/16", 8)
  content  = file("config.json", "utf-8")
  value    = lookup({ a = 1 })
  id       = uuid("seed")
  suffixed = endswith("name")
}

output "all" {
  value = [local.shout, local.subnet, local.content, local.value, local.id, local.suffixed]
}
