# Namespaced calls Terraform cannot resolve: a provider the module does not
# require, a namespace that is not `provider::`, a missing provider name,
# a name deeper than `provider::NAME::FUNC`, a function the built-in
# `terraform` provider does not have, and a `core::` name that is no
# built-in function.
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

locals {
  not_required = provider::google::region_from_zone("europe-west1-b")
  wrong_prefix = providers::aws::arn_parse("x")
  no_provider  = provider::arn_parse("x")
  too_deep     = provider::aws::iam::arn_parse("x")
  not_builtin  = provider::terraform::encode_json({ a = 1 })
  no_core      = core::nosuch("x")
}

output "all" {
  value = [local.not_required, local.wrong_prefix, local.no_provider, local.too_deep, local.not_builtin, local.no_core]
}
