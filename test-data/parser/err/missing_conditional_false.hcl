a = x ? 1
b = 2
