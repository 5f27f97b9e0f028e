# Terraform's version of the requirements; OpenTofu reads `versions.tofu`
# instead, so the variable both declare is no duplicate.
terraform {
  required_version = ">= 1.5"
}

variable "region" {
  type = string
}
