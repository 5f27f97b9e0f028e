locals {
  zones = ["a", "b", "c"]
  ports = { web = 80 }
  fifth = local.zones[4]
  db    = local.ports["db"]
}

service "web" {
  zone = local.fifth
  port = local.db
}
