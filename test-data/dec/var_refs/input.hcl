a = "${foo.bar} and ${baz[0]}"
b = things["key"].name
item {
  v = count.index
}
item {
  v = other[local.i].x
}
