variable "region" {
  type = string
}

variable "name" {
  type = string
}
