name = "top"
a "static" {
  val = "a static"
}
dynamic "a" {
  for_each = ["x"]
  labels   = [a.value]
  content {
    val = "a ${a.value}"
  }
}
dynamic "b" {
  for_each = ["y"]
  content {
    val = "b ${b.value}"
  }
}
b {
  val = "b static"
}
