# partial: a blk[] | just-attributes
a = 1
blk {}
b = "two"
