locals {
  zones      = ["a", "b", "c"]
  zone_count = length(local.zones)
  region     = "eu-west-1"
  long       = [for i in range(30) : "zone-${i}"]
  prefix     = "${var.prefix}-logs"
}

variable "prefix" {
  description = "What every name starts with."
  type        = string
  default     = "app"
}

resource "aws_s3_bucket" "logs" {
  count  = local.zone_count
  bucket = "${local.prefix}-${count.index}"
}

data "aws_iam_policy_document" "read" {
  statement {
    resources = [aws_s3_bucket.logs[0].arn]
  }
}

module "store" {
  source = "./store"
  name   = cidrsubnet("10.0.0.0/16", 8, 1)
}

output "bucket" {
  value = aws_s3_bucket.logs[0].id
}
