variable "region" {
  description = "No type."
}

component "app" {
  inputs = {}
}

output "id" {
  value = 1
}

removed {
  from = component.old
}
