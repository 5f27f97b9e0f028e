a = <<EOT
foo ${bar
