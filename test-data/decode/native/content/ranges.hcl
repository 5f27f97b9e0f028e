# content: a b c d blk[x]
a = 1 # trailing comment
b = [
  1,
  2,
] // another
c = (1 + 2)
d = "héllo wörld 👍🏽"
blk "é👍🏽" {
}
