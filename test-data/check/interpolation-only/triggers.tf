resource "aws_instance" "web" {
  ami           = "${var.ami}"
  instance_type = "${lookup(var.types, var.env)}"
  count         = "${var.enabled ? 1 : 0}"
  subnet_id     = "${~ element(var.subnets, 0) ~}"

  tags = {
    Name               = "${var.name}"
    "${var.extra_key}" = "x"
  }

  # An operand keeps its meaning with parentheses.
  monitoring = "${var.env}" == "prod" || "${var.a && var.b}"
  list       = ["${var.one}", "${concat(var.two, var.three)}"]
  names      = [for s in var.subnets : "${s}"]
  multi      = "${merge(
    var.a,
    var.b,
  )}"
}
