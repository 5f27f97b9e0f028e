locals {
  settings = jsondecode("{not json")
}

service "web" {
  settings = local.settings
}
