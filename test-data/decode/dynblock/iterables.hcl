dynamic "item" {
  for_each = ["l0", "l1"]
  labels   = ["list"]
  content {
    key   = item.key
    value = item.value
  }
}
dynamic "item" {
  for_each = ["t0", 1, true]
  labels   = ["tuple"]
  content {
    key   = item.key
    value = item.value
  }
}
dynamic "item" {
  for_each = toset(["s1", "s0"])
  labels   = ["set"]
  content {
    key   = item.key
    value = item.value
  }
}
dynamic "item" {
  for_each = tomap({b = "mb", a = "ma"})
  labels   = ["map"]
  content {
    key   = item.key
    value = item.value
  }
}
dynamic "item" {
  for_each = {z = 1, y = "two"}
  labels   = [item.key]
  content {
    key   = item.key
    value = item.value
  }
}
dynamic "item" {
  for_each = []
  labels   = ["empty"]
  content {
    value = "never"
  }
}
dynamic "item" {
  for_each = [{name = "n0", port = 80}, {name = "n1", port = 81}]
  iterator = svc
  labels   = [svc.value.name]
  content {
    port = svc.value.port
    item = "shadows nothing: ${svc.key}"
  }
}
