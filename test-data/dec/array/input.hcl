first = "a"
last  = 3
