n = "12.50"
s = 42
b = "true"
