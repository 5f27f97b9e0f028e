a = -1
b = 1 - 1
c = 1-1
d = 1 - -1
e = (-1)
f = [-1, - 2]
g = {x = -1}
h = x ? -1 : -2
i = !var.x
j = ! var.x
k = a&&b||!c
l = a==b
m = a!=-b
n = 1*-2
o = 1/2%3
p = a>=-1
q = a<=b
r = a > b
s = a < -b
t = - var.x
u = func(-1, -2)
v = {for k, v in x : k => -v}
w = 1 +-1
x = a - (b)
y = a[0] - 1
z = "a" - 1
aa = "${-1}"
