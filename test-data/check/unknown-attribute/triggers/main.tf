locals {
  settings = { name = "web", port = 8080 }
  port     = local.settings.prot
}

output "port" {
  value = local.port
}
