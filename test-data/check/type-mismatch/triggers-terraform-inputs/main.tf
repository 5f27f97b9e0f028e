# Type mismatches that hold whatever the variables and the resources'
# attributes turn out to be: every operand's type is known, or the literal
# beside the unknown can never convert.
variable "name" {
  type = string
}

variable "names" {
  type = list(string)
}

variable "anything" {}

resource "aws_s3_bucket" "logs" {
  bucket = "${var.name}-logs"
  # "x" is never a number, whatever length(var.names) is.
  count = "x" * length(var.names)
}

resource "aws_instance" "web" {
  ami = "ami-123"
  # "a" is never a number, whatever element var.anything picks.
  cpu_core_count = [1, 2][var.anything] + "a"
}

locals {
  # A list of strings is never a bool.
  enabled = !var.names
  # A resource's attribute is unknown of any type, but a tuple never
  # converts to a number.
  size = aws_instance.web.ami * [1]
  # The condition of a for is a number whatever the zones are.
  zones = [for zone in [var.name, "b"] : zone if 1]
  # Even over an unknown collection: HCL v2.24 checks the condition's type
  # before it looks whether the collection is known.
  unknown_zones = [for zone in var.names : zone if 1]
}

output "all" {
  value = [local.enabled, local.size, local.zones, local.unknown_zones, aws_s3_bucket.logs]
}
