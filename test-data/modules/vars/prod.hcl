environment = "prod"
region      = "eu-west-1"
replicas    = 3
settings    = { debug = true }
