terraform {
  source = "./module"
}

inputs = {
  name   = "app"
  reigon = "us-east-1"
}
