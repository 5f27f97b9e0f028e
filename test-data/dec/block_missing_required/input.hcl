extra {
  value = "x"
}
