variable "datacenters" {
  default = ["dc1"]
}

job "worker" {
  datacenters = var.datacenters
}
