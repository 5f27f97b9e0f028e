variable "name" {
  type = string
}

variable "region" {
  type    = string
  default = "eu-west-1"
}
