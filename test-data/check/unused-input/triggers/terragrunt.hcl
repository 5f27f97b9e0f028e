terraform {
  source = "./module"
}

inputs = {
  name   = "app"
  reigon = "us-east-1"
  # Near `name`, which is given already: renamed, it would replace that
  # key's value, so it is not suggested.
  nmae = "dup"
}
