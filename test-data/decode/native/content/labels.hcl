# content: resource[type,name] locals[]
resource "aws_instance" "web" {}
resource "aws_instance" {}
resource {}
resource "a" "b" "c" {}
locals "x" {}
locals "x" "y" {}
locals {}
resource a b {}
