a = foo.bar.baz
b = list[0]
c = list.0.name
d = list[*].id
e = list.*.id
f = list[*].a.b[0]
g = m["key"][count.index]
h = a.*.b.c
