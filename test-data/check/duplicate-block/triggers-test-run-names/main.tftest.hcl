run "setup" {
  command = plan
}

run "check" {
  command = plan
}

run "setup" {
  command = apply
}
