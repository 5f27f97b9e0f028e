# Misspelt arguments of Terraform's own blocks: each one is an error for
# `terraform validate`, whatever the providers.
variable "region" {
  type     = string
  defualt  = "eu-west-1"
  sensitiv = false

  validation {
    condition     = length(var.region) > 0
    error_message = "The region must not be empty."
    message       = "extra"
  }
}

output "region" {
  value       = var.region
  descripton  = "The region."
}

terraform {
  required_verison = ">= 1.5"
}

moved {
  from = aws_instance.a
  to   = aws_instance.b
  too  = aws_instance.c
}

region = "eu-west-1"
