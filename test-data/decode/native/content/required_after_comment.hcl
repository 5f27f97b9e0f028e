# content: a!
# a line comment
/* a block comment */   

x = 1
