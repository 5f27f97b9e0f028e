# Terragrunt passes inputs as TF_VAR_ environment variables of JSON text,
# which a variable of type string reads literally: a list or a map for one
# is its JSON (Terragrunt's internal/tf/variables.go says so).
terraform {
  source = "./module"
}

inputs = {
  subnets = ["subnet-a", "subnet-b"]
  tags    = { team = "web" }
}
