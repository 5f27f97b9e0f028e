service "web" {
  port = 80
}
service "web" {
  port = 81
}
