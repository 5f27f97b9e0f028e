resource "a" "b" {
    x = 1
  yy = 2 # c
  // slashes

  s = <<EOF
  keep
EOF
  l = [
  1,
  ]
}
