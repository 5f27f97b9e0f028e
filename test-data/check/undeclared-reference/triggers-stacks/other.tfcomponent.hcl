output "vpc" {
  type  = string
  value = component.network.vpc_id
}

removed {
  from   = component.gone
  source = "./gone"
  providers = { aws = provider.aws.old }
}
