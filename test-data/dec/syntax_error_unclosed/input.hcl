name = {
  a = 1
