locals {
  a      = local.b + 1
  b      = local.a * 2
  uses_a = local.a
  typo   = local.nmae
  name   = "x"
  bad    = 1 + "one"
  needs  = var.required
  fine   = "${local.name}!"
}

service "web" {
  port = servce.web.port
}
