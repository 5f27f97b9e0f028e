output "instance_ids" {
  value = aws_instance.web[*].id
}

output "bucket_arns" {
  value = local.bucket_arns
}

output "security_group" {
  value = {
    id   = aws_security_group.web.id
    name = aws_security_group.web.name
  }
}

output "name_prefix" {
  value = local.name_prefix
}

output "port_count" {
  value = local.port_count
}

output "replica_bucket" {
  value = aws_s3_bucket.replica.bucket
}
