name = "a"
count = 
