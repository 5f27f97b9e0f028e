greeting = "hello, ${nobody}"
total    = sum.a
