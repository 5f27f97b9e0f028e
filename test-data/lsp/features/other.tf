output "store_id" {
  value = module.store.id
}

resource "aws_s3_bucket_policy" "logs" {
  bucket = aws_s3_bucket.logs[0].id
  policy = data.aws_iam_policy_document.read.json
}
