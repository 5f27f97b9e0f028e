# Terraform 0.11's quoted types and bare collection types, in a top-level
# variable block's type.
variable "quoted_string" {
  type = string
}
variable "quoted_list" {
  type = list(string)
}
variable "quoted_map" {
  type = map(string) # kept
}
variable "bare_list" {
  type = list(any)
}
variable "bare_map" {
  type = map(any)
}
variable "bare_set" { type = set(any) }

# Left as they are: other types, other quoted names, other places.
variable "quoted_set" {
  type = "set"
}
variable "quoted_number" {
  type = "number"
}
variable "modern" {
  type = list(string)
}
variable "plain" {
  type = string
}
variable "interpolated" {
  type = "${string}"
}
variable "object" {
  type = object({ a = list, b = "string" })
}
module "m" {
  type = list
}
locals {
  type = "string"
}
outer {
  variable "nested" {
    type = list
  }
}
type = "string"
