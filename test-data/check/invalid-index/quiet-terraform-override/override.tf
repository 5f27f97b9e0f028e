variable "ports" {
  type = list(string)
}
