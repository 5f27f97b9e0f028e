b = "from two"
item {
  n = 2
}
