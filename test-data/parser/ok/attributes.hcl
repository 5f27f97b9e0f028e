name = "value"
count = 3
enabled = true
nothing = null
