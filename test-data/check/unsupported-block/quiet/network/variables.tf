variable "tags" {
  type    = map(string)
  default = {}
}
