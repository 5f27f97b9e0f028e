name = "file"
sum  = { a = 10, b = 20 }
