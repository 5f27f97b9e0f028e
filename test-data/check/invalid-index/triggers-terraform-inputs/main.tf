# Indexes out of range of a literal tuple, and keys missing from a literal
# object, whatever the variables they sit beside are.
variable "name" {
  type = string
}

variable "pair" {
  type = tuple([string, number])
}

variable "settings" {
  type = object({
    region = string
  })
}

resource "aws_instance" "web" {
  ami = "ami-123"
  # The tuple has two elements whatever its elements are.
  instance_type = [var.name, var.name][2]
  # The object has no "b" whatever its "a" is.
  key_name = { a = var.name }["b"]
}

locals {
  # A literal tuple indexed by a negative number.
  zone = [var.settings.region, "us-east-1"][-1]
  # A resource's attribute is unknown, the tuple around it is not.
  ami = [aws_instance.web.ami][1]
  # A tuple's length is in its type, known while its value is not.
  third = var.pair[2]
}

output "all" {
  value = [local.zone, local.ami, local.third]
}
