componnet "app" {
  source = "./app"
}

resource "aws_instance" "web" {}

provider "aws" "main" {
  configs {}
}
