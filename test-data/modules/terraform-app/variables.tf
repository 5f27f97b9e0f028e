variable "region" {
  type    = string
  default = "us-east-1"
}

variable "environment" {
  description = "Deployment environment, set by the caller."
  type        = string
}

variable "instance_count" {
  type    = number
  default = 2
}

variable "buckets" {
  type = map(object({
    versioning = bool
  }))
  default = {
    logs   = { versioning = false }
    assets = { versioning = true }
  }
}

variable "ingress_ports" {
  type    = list(number)
  default = [80, 443]
}
