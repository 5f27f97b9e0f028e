mock_data "aws_ami" {
  defualts = {
    id = "ami-123"
  }
}
