# A generic module's variables and locals are Halite's: the first
# declaration wins, and a second one would be silently hidden.
variable "port" {
  default = 80
}

variable "port" {
  default = 8080
}

locals {
  name = "a"
}

locals {
  name = "b"
}

service "web" {
  port = var.port
  name = local.name
}
