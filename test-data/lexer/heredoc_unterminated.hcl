a = <<EOT
foo ${"bar"}
