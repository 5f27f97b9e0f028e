a = f(x...,y)
b = 2
