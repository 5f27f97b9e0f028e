variable "zones" {
  type = list
}

variable "tags" {
  type = "map"
}

output "all" {
  value = [var.zones, var.tags]
}
