a = true ? {a = [1]} : {a = ["x"]}
b = true ? {a = 1} : tomap({b = "x"})
c = true ? tolist([1]) : toset([2])
d = true ? tomap({a = 1}) : tomap({a = "x"})
e = true ? [[1]] : [["a", 2]]
f = true ? 1 : [1]
g = false ? null : null
h = true ? tolist([]) : [1, "a"]
i = {for k, v in {a = 1, b = 1} : v => k...}
j = {for x in [3, 1, 2] : x => x}
k = [for x in toset([3, 1, 2]) : x]
l = [for k, x in toset(["b", "a"]) : k]
m = [[1, 2], [3]][*][*]
n = [{a = [{b = 1}]}][*].a[*].b
o = [{a = {b = 1}}].*.a.b
p = [[1, 2]].*.0
q = [{a = 1}][0].*.a
r = {a = 1, b = "x"}[*]
s = tolist([tolist([1])])[*][0]
t = [for x in [1, 2] : [for y in [3] : x * y]]
u = {for k, v in {x = {y = 1}} : k => v.y}
v = [for i, x in ["a"] : "${i}${x}"]
w = "a" < "b"
x = [1] + 1
y = {a = 1} == {a = 1, b = 2}
z = tolist([1, 2]) == tolist([1, 2])
aa = toset([1]) == toset([1])
ab = tomap({a = 1}) == {a = 1}
ac = [1, [2]] == [1, [2]]
ad = 1.0 == 1
ae = "1" == 1
af = 0.1 * 3 == 0.3
ag = 1e-400
ah = 1e400 - 1e400
ai = 0 / 0
aj = 1e400 * 0
ak = -5 % -3
al = 5.5 % 2
am = -0 == 0
an = 10 / 3
ao = 2 / 3 * 3
ap = 1 - 0.9
aq = 100 * 1.1
