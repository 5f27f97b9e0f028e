output "summary" {
  value = "${service.worker.name} on port ${service.worker.port}, at most ${local.most} replicas each in ${length(local.zones)} zones"
}
