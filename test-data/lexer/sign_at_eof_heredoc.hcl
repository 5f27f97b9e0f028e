a = <<EOT
50%