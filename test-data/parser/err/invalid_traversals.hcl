a = x.
b = x.0.1
c = x.*.*
d = 1
