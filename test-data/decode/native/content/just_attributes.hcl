# just-attributes
a = 1
blk {}
b = "two"
other "x" {}
a = 3
