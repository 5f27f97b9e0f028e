a = <<EOF
abc
