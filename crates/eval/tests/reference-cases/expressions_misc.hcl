a = <<-EOT
	tab
	  x
	EOT
b = <<-EOT
  ${"a"}
    b
  EOT
c = <<-EOT

    a

  b
  EOT
d = <<EOT
  x %{ if true ~}
  y
  %{~ endif } z
EOT
e = "a %{ for x in [1, 2] ~} ${x} %{~ endfor } b"
f = "%{ if false }x%{ else }  y  %{ endif }"
g = "${null}"
h = "a${null}"
i = "a${[1]}"
j = "${true}${1.5}"
k = [for x in null : x]
l = [for x in "abc" : x]
m = {for x in [1, 1] : x => x}
n = {for x in [1, 2] : (x > 1 ? "a" : "b") => x}
o = [for x in [1] : x if "true"]
p = [for x in [1] : x if null]
q = [1, 2][2]
r = [1, 2][-1]
s = [1, 2]["1"]
t = {a = 1}.b
u = tomap({a = 1}).b
v = "abc".x
w = null.x
x = [1][null]
y = toset([1])[0]
z = [for v in [{a = 1}, {a = 2}] : v.a]
aa = [{a = 1}, {b = 2}][*].a
ab = tolist([{a = 1}, {a = 2}]).*.a
ac = {a = {b = 1}}.a.b
ad = [[1, 2]][0][1]
ae = {a = 1}.*
af = [1, 2] == tolist([1, 2])
ag = 1 + true
ah = !1
ai = -true
aj = 1 / "x"
ak = (1 > 2) == false
al = "${1}" == 1
am = upper()
an = upper("a", "b")
ao = upper(1)
ap = upper([1])
aq = upper(null)
ar = concat([1]...)
as = concat(null...)
at = concat("a"...)
au = max([1, 2]...)
av = length([1, 2]...)
aw = true ? 1 : "a"
ax = false ? {a = 1} : {b = 2}
ay = true ? [1] : [1, 2]
az = null ? 1 : 2
ba = "true" ? 1 : 2
bb = 1 ? 1 : 2
bc = { "a" = 1, "a" = 2 }
bd = { (1) = 2 }
be = { true = 1, null = 2 }
bf = { null = 1 }.null
bg = { a = 1, b = 2 }["${"a"}"]
bh = [1, 2, 3][1.5]
bi = "\u00e9" == "e\u0301"
bj = "x" < "y"
bk = 1e1000 > 0
bl = -1e1000
bm = 1e-1000
