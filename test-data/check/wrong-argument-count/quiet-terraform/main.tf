# Calls that Terraform accepts though the standard library's functions of
# the same names take other arguments, and Terraform's variadic functions.
variable "tags" {
  type    = map(string)
  default = {}
}

variable "password" {
  type      = string
  sensitive = true
}

locals {
  name_length = length("web")
  owner       = lookup(var.tags, "owner")
  team        = lookup(var.tags, "team", "platform")
  subnets     = cidrsubnets("10.0.0.0/16", 4, 4, 8)
  hash        = bcrypt(var.password)
  hash_cost   = bcrypt(var.password, 12)
  first       = coalesce("", null, "default")
  last        = element(["a", "b", "c"], -1)
  now         = timestamp()
  id          = uuid()
  merged      = merge({ a = 1 }, { b = 2 }, { c = 3 })
}

output "all" {
  value = [
    local.name_length, local.owner, local.team, local.subnets, local.hash,
    local.hash_cost, local.first, local.last, local.now, local.id, local.merged,
  ]
}
