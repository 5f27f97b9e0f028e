a = <<-EOT
    x
    y
    EOT
b = <<-EOT
  a  ${~ "b"}
    c
  EOT
c = <<-EOT
    a
  ${"b"}
    c
  EOT
d = <<-EOT
    %{ if true ~}
      x
    %{ endif ~}
    y
  EOT
e = "a\r\nb"
f = <<EOT
$${x} %%{y}
EOT
g = "  ${~ "x" }  ${ "y" ~}  "
h = <<-EOT
		a
	 b
	EOT
i = "%{ for k, v in {a = 1} }${k}=${v}%{ endfor }"
j = "%{ for v in [] }x%{ endfor }"
k = "${ [for x in [1] : x] }"
l = "%{ if "true" }y%{ endif }"
m = "%{ for v in ["a", null] }${v}%{ endfor }"
n = "%{ for v in "abc" }${v}%{ endfor }"
o = "${ {a=1} }"
p = <<-EOT
  ${"a"} 
  EOT
q = "\u00e9\U0001F600\\\"\t"
r = var.x
s = obj.list[*].name
t = obj.list.*.name[0]
u = [for o in obj.list : upper(o.name) if o.n > 1]
v = {for o in obj.list : o.name => o.n}
w = obj["list"][1]["n"]
x = length(obj.list)
y = obj.map.k
z = obj.nope
aa = "${obj.list[0].name}-${obj.list[0].n}"
ab = obj.list[0].n + obj.list[1].n
ac = nothing == null
ad = nothing.x
ae = nothing[*]
