block {
  x  = 1
  yy = "a	b"
  nested {
    z = [1, 2]
  }
  h = <<EOT
	kept
EOT
}
