identity_token "aws" {
  audience = ["aws.workload.identity"]
}

identity_token "aws" {
  audience = ["aws.workload.identity"]
}

deployment "prod" {
  inputs = { region = "us-east-1", token = identity_token.aws.jwt }
}

deployment "prod" {
  inputs = { region = "eu-west-1", token = identity_token.aws.jwt }
}

store "varset" "keys" {
  id       = "varset-1"
  category = "env"
}

store "varset" "keys" {
  id       = "varset-2"
  category = "env"
}
