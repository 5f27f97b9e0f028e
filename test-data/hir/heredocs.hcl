plain = <<EOF
hello \n not an escape
  ${name} $${lit}
EOF
flush = <<-EOT
    indented
      more %{ if x }yes%{ endif }
    EOT
empty = <<EOF
EOF
