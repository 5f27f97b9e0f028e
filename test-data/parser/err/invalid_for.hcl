a = [for x xs : x]
b = {for x in xs : x}
c = [for k, v in m : k => v]
d = 1
