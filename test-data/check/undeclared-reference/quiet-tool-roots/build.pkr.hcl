source "null" "example" {
  communicator = "none"
}

build {
  name    = "demo"
  sources = ["source.null.example"]

  provisioner "shell-local" {
    inline = ["echo ${build.ID} ${source.name}"]
  }
}
