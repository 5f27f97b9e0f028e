top = var.top
dynamic "a" {
  for_each = var.a_items
  labels   = [a.key, var.label]
  content {
    val     = "${a.value} ${var.inside}"
    unasked = var.unasked
    dynamic "b" {
      for_each = a.value.bs
      iterator = it
      content {
        val = "${it.value} ${a.key} ${var.deep}"
      }
    }
  }
}
dynamic "c" {
  for_each = c.items
  iterator = bad.name
  content {
    val = c.value
  }
}
dynamic "c" {
  for_each = var.c_items[local.i].x
  content {
    val = c.value
  }
}
a "static" "x" {
  val = local.static_a
}
