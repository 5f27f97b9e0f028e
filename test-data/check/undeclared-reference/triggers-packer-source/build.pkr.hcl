# A build naming a source no file of the template declares.
source "null" "first" {
  communicator = "none"
}

build {
  sources = ["source.null.first", "source.null.frist"]
}
