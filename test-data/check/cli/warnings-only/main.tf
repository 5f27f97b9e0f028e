variable "name" {
  default = "${"x"}"
}
