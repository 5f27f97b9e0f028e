a = <<EOF
hello
  ${name}
EOF

block {
  b = <<-EOT
    indented %{ if x }yes%{ endif }
    EOT
  c = 1
}
d = <<EOF
EOF
