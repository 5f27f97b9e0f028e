a b = 1
c = 2
