arith = 1 + 2 * 3 - 4 / 5 % 6
compare = a < b && c >= d || !e
eq = a == b != c
neg = -x
not = !y
cond = a ? b : c
nested_cond = a ? b : c ? d : e
parens = (1 + 2) * 3
unary_traversal = -a.b[0]
