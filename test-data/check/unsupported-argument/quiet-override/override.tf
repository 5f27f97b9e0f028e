# An override file changes what other files declare, so it may leave out
# what they set (a module call's source, an output's value).
module "network" {
  version = "2.0.0"
}

output "ids" {
  sensitive = true
}
