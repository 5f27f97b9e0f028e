locals {
  config = templatefile("${path.module}/config.tpl", { port = 80 })
  subnet = cidrsubnet("10.0.0.0/16", 8, 1)
}

output "all" {
  value = [local.config, local.subnet]
}
