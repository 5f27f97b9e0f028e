dynamic "item" {
  for_each = "a string"
  labels   = ["x"]
  content {}
}
dynamic "item" {
  for_each = null
  labels   = ["x"]
  content {}
}
dynamic "item" {
  for_each = [1]
  labels   = ["x"]
}
dynamic "item" {
  for_each = [1]
  labels   = ["x"]
  content {}
  content {}
}
dynamic "item" {
  for_each = [1]
  iterator = it.attr
  labels   = ["x"]
  content {}
}
dynamic "item" {
  for_each = [1]
  iterator = "it"
  labels   = ["x"]
  content {}
}
dynamic "item" {
  for_each = [1]
  labels   = ["x", "y"]
  content {}
}
dynamic "item" {
  for_each = [1]
  labels   = []
  content {}
}
dynamic "item" {
  for_each = [1]
  labels   = concat(["x"])
  content {}
}
dynamic "item" {
  for_each = [1]
  content {}
}
dynamic "item" {
  for_each = [null, ["a"], "ok"]
  labels   = [item.value]
  content {}
}
dynamic "item" {
  for_each = [1]
  labels   = ["x"]
  unexpected = true
  content {}
}
dynamic "other" {
  for_each = [1]
  content {}
}
dynamic {
  for_each = [1]
  content {}
}
