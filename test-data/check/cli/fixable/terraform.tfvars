names = ["a", "b"]
