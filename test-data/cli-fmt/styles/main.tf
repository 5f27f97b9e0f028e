resource aws_instance web {
  ami = "${var.ami}"
}

variable "names" {
  type = "list"
}
