resource "x" "y" {
  user_data = <<EOF
#!/bin/bash
    echo "${var.x}"
  echo ${var.y}
EOF
  policy    = <<-POLICY
      {
        "a": "${jsonencode(var.z)}"
      }
      POLICY
  short     = 1
  nested {
    script = <<EOT
  %{for x in var.list~}
  line ${x}
  %{endfor~}
  EOT
  }
  args = [<<A
a
A
  , "b"]
  call = f(<<X
  inside a call
X
  )
  multi = <<EOT
${
  var.x
}
EOT
}
