variable "name" {
  type = string
}

variable "cidr_block" {
  type = string
}

variable "zones" {
  type    = list(string)
  default = []
}

variable "enable_nat" {
  type    = bool
  default = false
}
