variable "datacenters" {
  default = ["dc1"]
}

job "web" {
  datacenters = var.datacenters
}
