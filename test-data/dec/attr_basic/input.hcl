name       = "web"
count      = 3
enabled    = true
other_name = "from other_name"
