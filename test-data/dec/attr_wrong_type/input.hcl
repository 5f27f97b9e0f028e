name  = "web"
count = "three"
enabled = {}
