# A JSON file's check block declares its scoped data source inside an
# expression the module's index does not list: any data source may be one.
data "aws_ami" "ubuntu" {}

output "ami" {
  value = data.aws_ami.ubuntu.id
}
