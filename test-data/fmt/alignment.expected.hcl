locals {
  a   = 1
  bbb = 2
  cc = {
    x   = 1
    yyy = 2
  }
  d     = 3
  eeeee = [1, 2]
  f = [
    1,
  ]
  gg = "x"

  after_blank = 1
  h           = 2
  obj         = { a = 1, b = 2 }
  heredoc     = <<EOT
text
EOT
  i           = 3
  j = func(
  1)
  k  = 4
  l  = a == b
  mm = c != d ? e : f
  nested { x = 1 }
  oooooo = 5
}
