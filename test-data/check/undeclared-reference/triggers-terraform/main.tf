# Every reference below names something this module does not declare, as
# Terraform's own validation reports it.

resource "aws_instance" "web" {
  ami = "ami-1"
}

data "aws_ami" "ubuntu" {}

ephemeral "random_password" "db" {
  length = 16
}

locals {
  # A misspelt resource type: the fix replaces the type.
  type_typo = aws_instanc.web.id
  # A misspelt resource name: the fix replaces the name.
  name_typo = aws_instance.wbe.id
  # Terraform's explicit prefix for a resource type.
  prefixed = resource.aws_instanc.web.id
  # A data source referred to without its `data.` prefix.
  no_prefix = aws_ami.ubuntu.id
  # No data source of that type at all.
  no_data = data.aws_vpc.main.id
  # No data source of that name.
  data_name = data.aws_ami.ubunt.id
  # No data source of that type: the fix replaces the type.
  data_type = data.aws_amii.ubuntu.id
  # No ephemeral resource of that name.
  ephemeral = ephemeral.random_password.dbb.result
  # A bare name is no reference Terraform knows (`true` is a keyword).
  bare = True
  # Inside a template, a function call and a `for` expression.
  template = "id: ${aws_instance.webb.id}"
  call     = upper(aws_instance.web2.id)
  for      = [for subnet in aws_subnets.all : subnet.id]
}

output "everything" {
  value = [
    local.type_typo, local.name_typo, local.prefixed, local.no_prefix, local.no_data,
    local.data_name, local.data_type, local.ephemeral, local.bare, local.template, local.call, local.for,
  ]
}
