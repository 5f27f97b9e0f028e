terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
  }
}

locals {
  order    = [var.a, var.b, var.c, var.d, var.e, var.f, var.g]
  twice    = var.count_from_env * 2
  tag_keys = keys(var.tags)
  greeting = "hello, ${var.required}"
}

output "order" {
  value = local.order
}

output "derived" {
  value = {
    twice     = local.twice
    tag_keys  = local.tag_keys
    greeting  = local.greeting
    untouched = var.untouched
  }
}
