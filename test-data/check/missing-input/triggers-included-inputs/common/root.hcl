inputs = {
  zone = "eu-west-1a"
}
