a = <<EOT
line one
  line ${two}
$${lit} %%{lit} $ % $x
EOT
b = <<-EOT
    indented
    EOT
c = <<EOT
EOT
