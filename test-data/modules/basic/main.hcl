# The values every service shares.
locals {
  name_prefix = "${var.environment}-${var.project}"
  zones       = [for i in range(var.zone_count) : "${var.region}${substr("abc", i, 1)}"]
  ports       = { for name, svc in service : name => svc.port }
  most        = max([for svc in service : svc.replicas]...)
}

service "web" {
  name     = "${local.name_prefix}-web"
  port     = 8080
  replicas = var.replicas
  zones    = local.zones
}

service "worker" {
  name     = "${local.name_prefix}-worker"
  port     = service.web.port + 1
  replicas = var.replicas * 2
  settings = var.settings
}
