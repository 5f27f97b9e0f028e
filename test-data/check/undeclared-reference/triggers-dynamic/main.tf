# Misspelled locals and variables in `dynamic` blocks, which the module
# model leaves out: in the `for_each`, in the `content` and in a nested
# `dynamic` block.
locals {
  partition = "aws"
}

variable "enable" {
  type    = bool
  default = true
}

data "aws_iam_policy_document" "this" {
  dynamic "statement" {
    for_each = var.enabel ? [1] : []

    content {
      resources = ["arn:${local.pratition}:ssm:*"]

      dynamic "condition" {
        for_each = [local.partiton]
        content {
          test     = "StringEquals"
          variable = "aws:PrincipalTag/env"
          values   = [condition.value]
        }
      }
    }
  }
}

output "policy" {
  value = [data.aws_iam_policy_document.this.json, var.enable, local.partition]
}
