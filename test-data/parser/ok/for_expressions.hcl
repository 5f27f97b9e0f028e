a = [for x in xs : x * 2]
b = [for i, x in xs : x if i > 0]
c = {for k, v in m : k => v}
d = {for k, v in m : v => k...}
e = {for k, v in m : k => v if v != null}
f = [
  for x in xs :
  x
]
