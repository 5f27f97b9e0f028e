a = [for x in var.list : x]
b = [for i, x in var.list : x if x != null]
c = { for k, v in var.map : k => v }
d = { for k, v in var.map : k => v... }
e = { for k, v in var.map : upper(k) => [for s in v : s] if length(v) > 0 }
f = [for x in [1, 2] : -x]
g = [for x in { a = 1 } : x]
h = [
  for x in var.list :
  x
]
