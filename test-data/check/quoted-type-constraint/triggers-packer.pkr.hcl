# Packer still reads a quoted type constraint: a warning here, where a
# Terraform file has an error.
variable "region" {
  type = "string"
}
