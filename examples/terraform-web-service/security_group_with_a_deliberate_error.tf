# THIS FILE HAS A DELIBERATE SYNTAX ERROR.
#
# It is here so that `halite check examples/terraform-web-service` shows what
# a diagnostic looks like. The list in `cidr_blocks` below is missing the
# comma between its two items; HCL requires commas between list items, so
# the fix is `["10.0.0.0/8", "192.168.0.0/16"]`.

resource "aws_security_group" "web" {
  name        = "${local.name}-web"
  description = "HTTPS from the private networks only."

  ingress {
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8" "192.168.0.0/16"]
  }
}
