greeting = "Hello, ${name}!"
ports    = [for p in [80, 443] : p + 1]
tags     = toset(["b", "a", "b"])
ratio    = 1 / 0

service "web" {
  replicas = length(ports)
}
