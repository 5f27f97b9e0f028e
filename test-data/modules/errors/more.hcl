locals {
  name = "y"
}

variable "required" {}
