a = << EOT
b = <<EOT x
c = <<<EOT
EOT
d = a <<= b
e = <<-
f = <<-1
g = <<
