a = foo.bar
b = {x = 1}.y
c = nofunc(1)
d = 1 + "x"
e = [1, 2][5]
f = (upper(1, 2))
