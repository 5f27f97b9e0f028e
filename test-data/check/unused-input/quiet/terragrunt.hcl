terraform {
  source = "./module"
}

inputs = {
  name   = "app"
  region = "us-east-1"
}
