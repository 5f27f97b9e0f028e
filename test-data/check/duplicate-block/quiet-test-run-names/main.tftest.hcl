run "setup" {
  command = plan
}

run "check" {
  command = apply
}
