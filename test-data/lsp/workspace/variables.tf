variable "region" {
  description = "Where the network lives."
  type        = string
  default     = "eu-west-1"
}

variable "zones" {
  type    = list(string)
  default = ["a", "b"]
}
