service "web" {
  home    = env.HOME
  command = shell("date")
  owner   = config.owner
}
