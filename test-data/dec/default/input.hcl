host = "example.com"
