output "first" {
  value = aws_instance.web[0].id
}

# Inside an attribute-only splat the .0 applies to each element, and [0]
# would not: attribute-splat rewrites the chain instead.
output "each_first" {
  value = aws_instance.web.*.tags.0 # halite-ignore: attribute-splat
}

output "numbers" {
  value = 1.5 + 0.25
}
