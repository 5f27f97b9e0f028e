a = "%{ if x }yes"
b = "%{ endif }"
c = "%{ foo }"
d = 1
