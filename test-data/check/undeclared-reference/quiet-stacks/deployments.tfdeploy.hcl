# A Stack's deployment configuration with every block HCP Terraform's
# documentation gives, and the older `orchestrate` rules.
identity_token "aws" {
  audience = ["aws.workload.identity"]
}

store "varset" "secrets" {
  id       = "varset-abc123"
  category = "terraform"
}

store "varset" "by_name" {
  name     = "shared"
  category = "env"
}

upstream_input "network" {
  type   = "stack"
  source = "app.terraform.io/example/project/network"
}

locals {
  regions = ["us-east-1"]
}

deployment_auto_approve "no_removals" {
  check {
    condition = context.plan.changes.remove == 0
    reason    = "Plans that remove resources need a review."
  }
}

deployment_group "canary" {
  auto_approve_checks = [deployment_auto_approve.no_removals]
}

deployment "staging" {
  inputs = {
    regions        = local.regions
    identity_token = identity_token.aws.jwt
    password       = store.varset.secrets.password
    subnet_ids     = upstream_input.network.subnet_ids
  }
  deployment_group = deployment_group.canary
}

deployment "retired" {
  inputs  = { regions = [] }
  destroy = true
  import  = false
}

orchestrate "auto_approve" "staging_only" {
  check {
    condition = context.plan.deployment == deployment.staging
    reason    = "Only staging is approved by itself."
  }
}

publish_output "vpc_id" {
  description = "The staging VPC."
  value       = deployment.staging.vpc_id
}
