job "web" {
  datacenters = ["dc1"]

  group "web" {
    count = 2

    task "server" {
      driver = "docker"

      config {
        image = "nginx:1.27"
      }
    }
  }
}
