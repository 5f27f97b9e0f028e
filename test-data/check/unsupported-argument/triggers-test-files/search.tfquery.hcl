list "aws_instance" "all" {
  provider = aws
  limt     = 10
}
