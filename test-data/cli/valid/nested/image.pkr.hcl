source "docker" "base" {
  image  = "debian:bookworm"
  commit = true
}

build {
  sources = ["source.docker.base"]
}
