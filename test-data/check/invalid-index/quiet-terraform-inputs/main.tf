# Indexes that depend on an unknown: nothing is reported.
variable "index" {
  type = number
}

variable "names" {
  type = list(string)
}

variable "tags" {
  type = map(string)
}

variable "anything" {}

resource "aws_instance" "web" {
  ami = "ami-123"
}

locals {
  by_index  = ["a", "b"][var.index]
  fifth     = var.names[4]
  missing   = var.tags["missing"]
  any_index = var.anything[7]
  any_key   = var.anything["key"]
  of_any    = [var.anything, "b"][1]
  resource  = aws_instance.web.tags["Name"]
  splat     = aws_instance.web[*].id[0]
  nested    = { a = var.names }["a"][3]
}

output "all" {
  value = [
    local.by_index, local.fifth, local.missing, local.any_index, local.any_key,
    local.of_any, local.resource, local.splat, local.nested,
  ]
}
