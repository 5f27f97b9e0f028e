# No module call is declared in this module.
output "vpc_id" {
  value = module.vpc.vpc_id
}
