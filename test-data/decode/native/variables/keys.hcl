a = [a[""], a[<<EOT
k
EOT
], a["${x}"], a["x${y}"], a["\n"]]
