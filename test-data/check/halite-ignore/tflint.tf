locals {
  # TFLint's comments silence the rules that find what TFLint's rules of
  # those names find.
  # tflint-ignore: terraform_deprecated_interpolation
  a = "${var.a}"
  b = "${var.b}" # tflint-ignore: terraform_deprecated_index, terraform_deprecated_interpolation
  c = var.c.0 # tflint-ignore: all # the legacy index is TFLint's deprecated index
  # A TFLint rule Halite has no counterpart of silences nothing.
  d = "${var.d}" # tflint-ignore: terraform_naming_convention
  e = var.e.0 # tflint-ignore: terraform_deprecated_interpolation
}
