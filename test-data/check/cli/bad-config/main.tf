variable "name" {
  type = "string"
}
