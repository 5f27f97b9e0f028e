a = <<EOT
EOTX
 EOT x
${x}EOT
XEOT
 EOT	 
b = 1
