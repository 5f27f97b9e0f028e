upper(
  "x",
  var.y
)
