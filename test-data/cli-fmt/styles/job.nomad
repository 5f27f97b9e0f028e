job example {
  region = "${var.region}"
}
