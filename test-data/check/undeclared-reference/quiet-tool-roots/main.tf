variable "names" {
  type = list(string)
}

resource "aws_instance" "web" {
  count         = length(var.names)
  ami           = data.aws_ami.ubuntu.id
  tags          = { Name = var.names[count.index], Workspace = terraform.workspace }
  user_data     = file("${path.module}/init.sh")
  subnet_id     = module.network.subnet_ids[count.index]

  provisioner "local-exec" {
    command = "echo ${self.private_ip}"
  }
}

resource "aws_eip" "each" {
  for_each = toset(var.names)
  instance = aws_instance.web[0].id
  tags     = { Name = each.key, Value = each.value }
}

data "aws_ami" "ubuntu" {}

module "network" {
  source = "./network"
}
