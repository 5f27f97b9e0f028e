component web {
  source = "${var.source}"
}
