a = { p = x, q = y, (z) = 1 }
b = [x, f(y), "${z}"]
c = x + y
d = true ? x : y
e = false ? x : y
f = x ? y : z
g = "${x}-${y}%{ if true }${z}%{ else }${w}%{ endif }"
h = x[y]
i = [for v in x : y]
j = -x == !y
k = x.a.b[y].c
l = [1, 2][x]
m = x == "6" ? [] : ["0.0.0.0/0"]
