# Terraform's functions outside the standard library: known by name,
# computed where they are pure, unknown where they read files or clocks.
variable "config" {
  type    = string
  default = "a: 1"
}

locals {
  encoded   = base64encode("hello")
  decoded   = base64decode(local.encoded)
  parsed    = yamldecode(var.config)
  yaml      = yamlencode({ a = 1 })
  found     = strcontains("hello", "ell")
  prefixed  = startswith("hello", "he")
  only      = one(["a"])
  total     = sum([1, 2])
  all       = alltrue([true])
  any       = anytrue([false, true])
  position  = index(["a", "b"], "b")
  exposed   = nonsensitive(sensitive("x"))
  flagged   = issensitive("x")
  query     = urlencode("a b")
  swapped   = transpose({ a = ["x"] })
  exists    = fileexists("${path.module}/x")
  files     = fileset(path.module, "*.tf")
  host      = cidrhost("10.0.0.0/24", 5)
  mask      = cidrnetmask("10.0.0.0/24")
  compared  = timecmp("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z")
  rendered  = templatestring(local.encoded, {})
  digest    = sha256("x")
  home      = pathexpand("~/.ssh")
  directory = dirname("/a/b")
}

output "all" {
  value = [
    local.decoded, local.parsed, local.yaml, local.found, local.prefixed, local.only,
    local.total, local.all, local.any, local.position, local.exposed, local.flagged,
    local.query, local.swapped, local.exists, local.files, local.host, local.mask,
    local.compared, local.rendered, local.digest, local.home, local.directory,
  ]
}
