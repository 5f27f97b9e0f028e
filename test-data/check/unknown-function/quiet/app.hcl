locals {
  when = timestamp_of_build()
}

service "web" {
  started = local.when
}
