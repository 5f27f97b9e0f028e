a = <<-EOT
  one
  two ${x}
  EOT
b = 2
