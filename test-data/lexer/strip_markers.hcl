a = "${~ x ~}"
b = <<EOT
  %{~ for v in l ~}
  ${~v~}
  %{~ endfor ~}
EOT
c = "${~~}"
d = { k = 1 ~}
