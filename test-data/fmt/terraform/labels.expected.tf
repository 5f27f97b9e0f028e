# Labels are written quoted, escaped as hclwrite writes strings.
resource "aws_instance" "web" {}
resource "aws_instance" "db" {}
data "a" "Aé" {}
data "a" "é" {}
data "a" "😀" {}
data "a" "nbsp\u00a0zero-width\u200bend" {}
data "a" "tab\there" {}
data "a" "quote\"backslash\\" {}

# A comment between the type and the last label goes; one after the last
# label stays.
resource "a" "b" /* after */ {}

outer {
  dynamic "ingress" {
    content {}
  }
  provisioner "local-exec" {}
}

# Left as they are.
resource "aws_instance" "web2" {}
locals {}
single {}
data "a" "ünïcödé" {}
data "a" "" {}
