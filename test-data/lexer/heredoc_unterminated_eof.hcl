a = <<EOT
foo
EOT