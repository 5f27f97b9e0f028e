# tflint-ignore-file: terraform_deprecated_interpolation, terraform_naming_convention # why
locals {
  # TFLint's file comment silences its rules in the whole file.
  a = "${var.a}"
  b = var.b.0
}
