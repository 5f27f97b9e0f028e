

  
# only a comment