a = "foo
bar"
b = "x
y"
c = "lone  cr"
d = "two

breaks"
