greeting = "hello, ${name}"
total    = sum.a + sum.b
