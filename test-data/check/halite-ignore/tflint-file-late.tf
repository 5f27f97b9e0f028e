locals {
  # tflint-ignore-file: terraform_deprecated_interpolation
  a = "${var.a}"
}
