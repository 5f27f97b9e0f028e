# Provider-defined functions (Terraform 1.8 and later) of providers the
# module requires, under the local names it gives them, and the built-in
# functions under their `core::` names. Only the provider knows its
# functions, so any name in a required provider's namespace is accepted and
# its result is unknown; its arguments are still evaluated.
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    semvers = {
      source = "example/semvers"
    }
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

variable "arn" {
  type = string
}

locals {
  parsed      = provider::aws::arn_parse(var.arn)
  region      = provider::aws::arn_parse(var.arn).region
  literal     = provider::aws::arn_parse("arn:aws:iam::123456789012:user/x")
  spaced      = provider :: semvers :: compare("1.0.0", "1.2.0")
  compared    = provider::semvers::compare("1.0.0", "1.2.0") > 0
  guarded     = var.arn == null || provider::aws::arn_parse(var.arn).service == "iam"
  in_template = "region: ${provider::aws::arn_parse(var.arn).region}"
  tfvars      = provider::terraform::encode_tfvars({ a = 1 })
  decoded     = provider::terraform::decode_tfvars("a = 1")
  expression  = provider::terraform::encode_expr([1, 2])
  upper       = core::upper("abc")
  joined      = core::join(",", ["a", "b"])
  files       = core::fileset(path.module, "*.tf")
}

output "all" {
  value = [
    local.parsed, local.region, local.literal, local.spaced, local.compared, local.guarded,
    local.in_template, local.tfvars, local.decoded, local.expression, local.upper, local.joined,
    local.files,
  ]
}
