rule {
  port = 1
}
