a = x & y
b = x | y
c = x ^ y
d = ~x
e = x & y
f = 1;
g = 2;
h = `x`
i = `y`
j = 'x'
k = 'y'
l = “x”
m = @ $ \ §
n = 1 ﻿
o = 
