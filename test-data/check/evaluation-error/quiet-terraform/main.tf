# Arguments Terraform accepts where the standard library's functions of the
# same names would not, and unknown arguments that decide nothing yet.
variable "settings" {
  type = object({
    region = string
    zones  = list(string)
  })
}

locals {
  region     = lookup({ us = "us-east-1" }, "eu", "eu-west-1")
  zone_count = length(var.settings.zones)
  name_size  = length(var.settings.region)
  enabled    = tobool("true")
  port       = tonumber("8080")
  zones      = toset(var.settings.zones)
  last_zone  = element(var.settings.zones, -1)
  primary    = coalesce(var.settings.region, "us-east-1")
  replaced   = replace(var.settings.region, "/-[0-9]+$/", "")
  first_zone = one(slice(var.settings.zones, 0, 1))
  has_null   = contains(["a", null], null)
}

output "all" {
  value = [
    local.region, local.zone_count, local.name_size, local.enabled, local.port,
    local.zones, local.last_zone, local.primary, local.replaced, local.first_zone,
    local.has_null,
  ]
}
