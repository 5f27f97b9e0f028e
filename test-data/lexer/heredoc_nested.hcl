a = <<OUTER
before ${ <<INNER
inner ${x}
INNER
} after
EOT
OUTER
b = "${<<EOT
in quotes
EOT
}"
