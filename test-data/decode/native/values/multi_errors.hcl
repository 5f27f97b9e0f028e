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
n = "${null}-${null}-${[1]}-${true}"
o = [for value in [1, 2] : value + zzz]
p = {for key, value in {a = 1, b = 2} : zzz => value}
q = [for value in [1, 2, 3] : zzz if value > 1]
r = [for value in [1, 2] : value if zzz]
