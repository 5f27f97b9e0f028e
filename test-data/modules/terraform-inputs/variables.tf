# Each variable is set by the sources up to one of Terraform's precedence
# levels, so that one run shows the whole order: a later source wins.
variable "a" {} # TF_VAR_a only
variable "b" {} # and terraform.tfvars
variable "c" {} # and terraform.tfvars.json
variable "d" {} # and a.auto.tfvars
variable "e" {} # and b.auto.tfvars.json (after a.auto.tfvars)
variable "f" {} # and --var-file vars/cli.tfvars, then --var f=…
variable "g" {} # --var g=…, then --var-file vars/cli.tfvars

variable "count_from_env" {
  type    = number
  default = 0
}

variable "tags" {
  type    = map(string)
  default = {}
}

variable "untouched" {
  default = "its default"
}

variable "required" {
  type = string
}
