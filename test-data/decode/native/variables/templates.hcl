a = <<EOT
${y.z} and %{ if c.d }${e}%{ else }${f[g].h}%{ endif } ${"${nested.t}"}
EOT
