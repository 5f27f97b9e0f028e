target "x" {}
