# partial: a svc[name] | rest: b other[]
a = 1
b = 2
c = 3
svc "x" {}
other {}
svc "y" {}
more {}
