resource "aws_instance" "web" {
  count = 2
  ami   = "${var.ami}"
}

output "first_ip" {
  value = aws_instance.web.0.private_ip
}

output "names" {
  value = ["é${var.prefix}", "${var.prefix}"] # halite-ignore: legacy-index
}
