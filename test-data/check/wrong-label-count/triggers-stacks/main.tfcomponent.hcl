provider "aws" {
  config {}
}

component {
  source = "./app"
}
