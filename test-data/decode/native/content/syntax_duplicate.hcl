# content: a
a = 1
a = 2
b = 3
b = 4
