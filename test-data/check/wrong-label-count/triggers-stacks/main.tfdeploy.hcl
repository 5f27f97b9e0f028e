store "keys" {
  category = "env"
}

orchestrate "no_changes" {
  check {
    condition = true
    reason    = "always"
  }
}
