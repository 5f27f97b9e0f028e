# Terraform's own functions rejecting their arguments.
locals {
  enabled = tobool("yes")
  region  = lookup({ us = "us-east-1" }, "eu")
  total   = sum([])
  only    = one(["a", "b"])
  names   = list("a", "b")
  port    = tonumber("http")
  subnet  = cidrsubnet("10.0.0.0/16", "eight", 1)
}

output "all" {
  value = [local.enabled, local.region, local.total, local.only, local.names, local.port, local.subnet]
}
