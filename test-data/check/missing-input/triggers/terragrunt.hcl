terraform {
  source = "./module"
}

inputs = {
  region = "us-east-1"
}
