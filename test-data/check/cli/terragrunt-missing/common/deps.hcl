# Shared dependencies, relative to the unit that includes this file.
dependency "cache" {
  config_path = "${get_terragrunt_dir()}/../cache"
}
