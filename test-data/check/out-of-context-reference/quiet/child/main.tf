variable "name" {}
variable "value" {}
