variable "port" {}

variable "names" {
  type = list(string)
}

resource "aws_instance" "web" {
  ami = "ami-123"
}

locals {
  next     = var.port + 1
  count    = length(var.names) * 2
  computed = aws_instance.web.cpu_core_count + 1
  chars    = length("a string")
  picked   = lookup({ a = 1 }, "a")
}

output "all" {
  value = [local.next, local.count, local.computed, local.chars, local.picked]
}
