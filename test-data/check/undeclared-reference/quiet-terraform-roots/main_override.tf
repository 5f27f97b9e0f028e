# An override file is merged into the block it overrides.
resource "aws_eip" "each" {
  tags = { Name = each.key, Override = local.vpc_id }
}
