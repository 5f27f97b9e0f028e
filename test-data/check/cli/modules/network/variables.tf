variable "cidr_block" {}

variable "region" {}

locals {
  name = "main"
}
