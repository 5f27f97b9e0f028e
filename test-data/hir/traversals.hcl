attr = foo.bar.baz
index = list[0]
dynamic = m["key"][count.index].name
legacy = list.0.name
legacy_padded = list.00
call = f(a, b).c
paren = (a.b).c
