locals {
  a = local.b
  b = local.c
  c = "${local.a}-c"
}

output "a" {
  value = local.a
}
