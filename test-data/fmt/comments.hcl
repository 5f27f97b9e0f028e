# leading comment
  // slash comment
/* block
   comment */
resource "a" "b" { # after brace
  foo = 1 # trailing
  barbaz = 2    // trailing slash
  /* inline */ qux = 3
  x = /* mid */ 4
  y = [ # after bracket
    1, # one
    2 /* two */,
  ]
      # indented too far
  z = 5 /* block trailing */
  f = func(1, /* arg */ 2)
}
# between
locals {
  a = 1
  # a comment line breaks the comment run
  bb = 2 # c1
  ccc = 3 # c2

  dddd = 4 # after blank line
  eeeee {} # block
}
# final comment
