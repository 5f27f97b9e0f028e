source amazon-ebs web {
  ami_name = "${var.name}"
}
