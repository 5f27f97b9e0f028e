   /* a block comment first */ # content: a!
x = 1
