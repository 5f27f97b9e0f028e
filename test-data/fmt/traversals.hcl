a = var.list[0]
b = var.list [ 0 ]
c = aws_instance.web[*].id
d = aws_instance.web.*.id
e = var.map["key"].attr
f = var.obj . attr
g = module.x[count.index].out[0]
h = func(var.list...)
i = func(var.a, var.b)
j = var.list[length(var.list) - 1]
k = (var.a)[0]
l = [1, 2][0]
m = {a = 1}["a"]
n = "s"[0]
o = var.t.0.x
p = var.list[*]
