locals {
  port  = "eighty"
  next  = local.port + 1
  flag  = "yes" ? 1 : 2
}

service "web" {
  port = local.next
  on   = local.flag
}
