variable "environment" {
  type    = string
  default = "dev"
}

variable "project" {
  default = "halite"
}

variable "region" {
  type = string
}

variable "zone_count" {
  type    = number
  default = 2
}

variable "replicas" {
  type    = number
  default = 1
}

variable "settings" {
  type = object({
    debug   = optional(bool, false)
    timeout = optional(number, 30)
  })
  default = {}
}
