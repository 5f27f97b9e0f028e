variable "name" {
  type = string
}

variable "zones" {
  type    = list(string)
  default = ["a"]
}

# Not a variable's type constraint.
resource "aws_instance" "web" {
  type = "string"
}

module "m" {
  variable "nested" {
    type = "string"
  }
}

# Not one of the keywords Terraform 0.11 accepted in quotes.
variable "other" {
  type = "number"
}
