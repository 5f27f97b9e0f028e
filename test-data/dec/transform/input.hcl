word  = "hello"
items = ["a", "b", "c"]
