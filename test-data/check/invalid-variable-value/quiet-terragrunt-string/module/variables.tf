variable "subnets" {
  type = string
}

variable "tags" {
  type = string
}
