greeting = "hello, ${name}"
total    = 1 + sum.b
