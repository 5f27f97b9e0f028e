# A default may name no variable: terraform validate reports "Variables
# not allowed" (the same fixture is Terraform's
# internal/command/testdata/validate-invalid/interpolation).
variable "image" {
  default = "nginx"
}

variable "tag" {
  default = "${var.image}-custom"
}

output "tag" {
  value = var.tag
}
