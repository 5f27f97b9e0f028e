identity_token "aws" {
  audience = ["aws.workload.identity"]
}

store "varset" "keys" {
  id       = "varset-1"
  category = "env"
}

deployment "prod" {
  inputs = {
    token    = identity_token.aws_token.jwt
    key      = store.varset.key.value
    other    = store.vault.keys.value
    region   = local.region
    upstream = upstream_input.network.vpc_id
  }
  deployment_group = deployment_group.prod
}

publish_output "vpc" {
  value = deployment.production.vpc_id
}
