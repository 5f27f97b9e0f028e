block "label" {
  a = "x${y}z"
  b = <<EOT
  body ${c}
  EOT
}
