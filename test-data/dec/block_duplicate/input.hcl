server {
  host = "a"
}
server {
  host = "b"
}
