output "instance_ids" {
  description = "The IDs of the web servers."
  value       = aws_instance.web[*].id
}

output "public_ips" {
  value = [for instance in aws_instance.web : instance.public_ip]
}
