variable "region" {
  type    = string
  defualt = "us-east-1"
}

component "app" {
  source  = "./app"
  input   = { region = var.region }
  provder = {}
}

provider "aws" "main" {
  for_eachh = ["a"]
  config {
    region = var.region
  }
}

output "id" {
  type  = string
  value = component.app.id
  sensitiv = true
}

removed {
  from   = component.old
  source = "./old"
  lifecycle {
    destory = true
  }
}
