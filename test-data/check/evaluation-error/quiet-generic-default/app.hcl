# An application's language may allow a call in a default (Waypoint's
# configdynamic()): a generic file's default is held only to its type.
variable "token" {
  default = configdynamic("vault", {})
}

service "web" {
  token = var.token
}
