locals {
  url = "http://${service.api.host}:${service.api.port}/"
}
