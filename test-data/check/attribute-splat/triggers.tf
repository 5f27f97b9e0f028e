output "ids" {
  value = aws_instance.web.*.id
}

# An index after the splat's attributes applies to the whole result: the
# rewrite keeps that with parentheses.
output "first_id" {
  value = aws_instance.web.*.id[0]
}

output "joined" {
  value = join(",", aws_instance.web.*.private_ip)
}

output "bare" {
  value = var.list.*
}
