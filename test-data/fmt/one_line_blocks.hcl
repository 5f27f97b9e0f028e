variable "a" {}
variable "b" { }
variable "c" {default = 1}
variable "dd" {   type = string   }
locals { a = 1 }
x = {}
y = { }
z = {a=1}
block {
  inner { x = 1 }
  other {}
}
