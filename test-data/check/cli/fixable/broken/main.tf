# A syntax error: no fix touches this file.
locals {
  a = "${var.x}"
  b = [
}
