# Each default converts to its type, as Terraform converts it.
variable "port" {
  type    = number
  default = "80"
}

variable "zones" {
  type    = list(string)
  default = ["us-east-1a", 2]
}

variable "settings" {
  type = object({
    name = string
    size = optional(number, 1)
  })
  default = {
    name = "web"
  }
}

variable "enabled" {
  type    = bool
  default = "true"
}

variable "nothing" {
  type    = string
  default = null
}

variable "untyped" {
  default = ["anything", { goes = true }]
}

variable "any" {
  type    = any
  default = { a = 1 }
}

output "all" {
  value = [var.port, var.zones, var.settings, var.enabled, var.nothing, var.untyped, var.any]
}
