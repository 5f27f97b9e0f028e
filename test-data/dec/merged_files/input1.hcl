a = "from one"
item {
  n = 1
}
