variable "used" {}

variable "unused" {}

locals {
  kept    = var.used
  dropped = "never read"
  # halite-ignore: unused-declaration
  silenced = "kept for a later change"
}

output "kept" {
  value = local.kept
}
