dynamic "item" {
  for_each = var.unknown_list
  labels   = ["unknown"]
  content {
    value = item.value
    fixed = "fixed"
    nested {
      deep = "deep"
    }
  }
}
dynamic "item" {
  for_each = var.unknown_list
  labels   = [item.key]
  content {
    value = item.value
  }
}
dynamic "item" {
  for_each = var.not_there
  labels   = ["failed"]
  content {
    value = "v"
  }
}
item "known" {
  value = "static"
}
