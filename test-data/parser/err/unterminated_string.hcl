a = 1
b = "abc