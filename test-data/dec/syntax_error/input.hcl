name = "unterminated
count = 
