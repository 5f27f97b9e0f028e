a = true ? [1, 2] : ["a"]
b = true ? {a = 1} : {a = "x", b = 2}
c = false ? tolist([1]) : ["a"]
d = true ? null : 1
e = true ? 1 : null
f = true ? [] : tolist(["a"])
g = true ? {} : tomap({a = 1})
h = [for x in toset(["b", "a"]) : x]
i = {for k, v in tomap({b = 1, a = 2}) : k => v}
j = [for x in [1, 2] : x if x > 5]
k = {for x in [] : x => x}
l = [for x in {b = 1, a = "x"} : x]
m = toset([1, 2]).*
n = tolist([{a = 1}, {a = 2}])[*].a
o = {a = 1}.*.a
p = "x"[*]
q = [[1, 2], [3, 4]][*][0]
r = format("%s", true)
s = format("%d", "12")
t = format("%.3s", "abcdef")
u = format("%q", "a\nb\tc\u0001")
v = format("%v", 1.50)
w = format("%v", [tolist(["a"]), 2])
x = format("%5t|%-5t|", true, false)
y = formatlist("%s-%s", ["a", "b"], "c")
z = format("%08.3f", -3.14159)
aa = format("% d", 5)
ab = format("%+.1e", 12345.678)
ac = format("%o %b", -8, -5)
ad = format("%x", 1e20)
ae = 1e20 * 1e20
af = 12345678901234567890 + 1
ag = 0.1 + 0.2
ah = 10 / 4
ai = -7 / 2
aj = 7 % 2.5
ak = -0
al = 0 * -1
am = 1 / 0 - 1
an = "10" + 5
ao = "1e3" * 1
ap = 3 > "2"
aq = "abc" == "abc"
ar = [1, "a"] == [1, "a"]
as = {a = 1} == {a = 1}
at = tolist([1]) == [1]
au = 1 == "1"
av = null == null
aw = abs(-1.5)
ax = ceil(1.2)
ay = floor(-1.2)
az = max(1, 2.5, "3")
ba = min([1, 2]...)
bb = pow(10, -2)
bc = log(100, 10)
bd = parseint("1010", 2)
be = signum(0)
bf = strrev("abc")
bg = substr("hello", 1, 3)
bh = substr("hello", -3, -1)
bi = trimprefix("abc", "ab")
bj = trimsuffix("abc", "bc")
bk = trimspace("  a b  \n")
bl = replace("a.b.c", ".", "-")
bm = replace("abc", "/b/", "x")
bn = regex_replace("abc", "[ac]", "z")
bo = split(".", "a.b..c")
bp = jsondecode("[1, \"a\", null, true, {\"x\": 1}]")
bq = jsonencode(tolist([1, 2]))
br = jsonencode(toset(["b", "a"]))
bs = jsonencode(tomap({a = "x"}))
bt = csvdecode("a,b\n1,2\n3,4\n")
bu = tolist(toset([3, 1, 2]))
bv = toset([1, "a"])
bw = tomap({a = 1, b = true})
bx = tonumber("  1")
by = tobool("true")
bz = tostring(1.0)
ca = compact(["a", "", "b"])
cb = lookup({a = 1, b = 2}, "b")
cc = keys(tomap({b = 1, a = 2}))
cd = length(tomap({}))
ce = length(toset([]))
cf = reverse([1, "a"])
cg = distinct(["a", "b", "a", "c"])
ch = setintersection(["a", "b"], ["b", "c"])
ci = setproduct(["a"], [1, 2])
cj = contains(["a"], "a")
ck = coalesce(1, "a")
cl = coalescelist(["a"], [1])
cm = concat()
cn = element([1, 2, 3], -1)
co = flatten([[[1]], 2])
cp = merge()
cq = merge(null, {a = 1})
cr = range(3)
cs = range(5, 1)
ct = range(1, 4, 2)
cu = slice(["a", "b"], 0, 0)
cv = sort(["b", "a", "10", "9"])
cw = zipmap([], [])
cx = chunklist([], 2)
cy = indent(4, "a")
cz = title("")
