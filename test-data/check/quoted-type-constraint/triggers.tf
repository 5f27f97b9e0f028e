variable "name" {
  type = "string"
}

variable "zones" {
  type    = "list"
  default = []
}

variable "tags" {
  type = "map"
}
