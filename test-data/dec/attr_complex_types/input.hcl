names = ["a", "b", 3]
ports = { http = 80, https = "443" }
owner = { name = "Ann", age = 40, extra = true }
pair  = ["x", 1]
tags  = ["z", "a", "m", "a"]
