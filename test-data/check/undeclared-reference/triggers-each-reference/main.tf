# Each reference that names nothing is reported, as terraform validate
# reports each, not only the first of its expression.
output "both_variables" {
  value = "${var.a}-${var.b}"
}

output "both_modules" {
  value = [module.m1.x, module.m2.y]
}

locals {
  # Between two that name nothing, a declared one is no diagnostic.
  declared = 1
  mixed    = [var.c, local.declared, local.d]
}
