d = "a.auto.tfvars"
e = "a.auto.tfvars"
f = "a.auto.tfvars"
