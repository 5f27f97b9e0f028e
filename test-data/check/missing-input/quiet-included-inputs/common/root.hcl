inputs = {
  region = "eu-west-1"
}
