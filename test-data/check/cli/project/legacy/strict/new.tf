locals {
  region = "${var.region}"
}
