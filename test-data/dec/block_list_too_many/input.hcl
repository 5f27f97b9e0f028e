rule {
  port = 1
}
rule {
  port = 2
}
rule {
  port = 3
}
