# tflint-ignore-file: terraform_unused_declarations # the module's declared input surface
variable "kept_for_callers" {
  type = string
}

locals {
  spare = 1
}
