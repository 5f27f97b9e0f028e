name  = "web"
colour = "blue"
