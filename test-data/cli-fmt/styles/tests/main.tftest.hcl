run setup {
  variables {
    name = "${var.n}"
  }
}
