ok = 1
for_missing = [for in : ]
unclosed_call = f(1,
block "unterminated" {
  inner = [1, 2
  unclosed_string = "abc ${x
