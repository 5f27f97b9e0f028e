# Terraform 0.11's forms, which Terraform still parses: interpolation-only
# strings, attribute-only splats, legacy indexes, quoted references in
# `depends_on` and `provider`.

resource "aws_subnet" "a" {
  count      = 2
  vpc_id     = "${local.vpc_id}"
  cidr_block = "${cidrsubnet("10.0.0.0/16", 8, count.index)}"
}

resource "aws_route_table_association" "a" {
  count          = 2
  subnet_id      = "${element(aws_subnet.a.*.id, count.index)}"
  route_table_id = "${aws_subnet.a.0.vpc_id}"
  provider       = "aws.west"
  depends_on     = ["aws_subnet.a"]
}

# Declared in the JSON twin of this module's files.
output "from_json" {
  value = "${null_resource.from_json.id}"
}
