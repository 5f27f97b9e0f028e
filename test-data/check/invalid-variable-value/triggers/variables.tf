variable "port" {
  type    = number
  default = "eighty"
}

variable "zones" {
  type    = list(string)
  default = "us-east-1a"
}

variable "settings" {
  type = object({
    name = string
    size = number
  })
  default = {
    name = "web"
  }
}

variable "enabled" {
  type    = bool
  default = ["yes"]
}

output "all" {
  value = [var.port, var.zones, var.settings, var.enabled]
}
