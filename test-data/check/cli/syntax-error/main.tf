locals {
  a = "${var.a}"
  b = [1 2]
}
