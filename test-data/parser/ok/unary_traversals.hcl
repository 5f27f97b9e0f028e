a = -x.y
b = !f(1)
c = - - 1
