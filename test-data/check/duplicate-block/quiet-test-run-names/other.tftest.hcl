# Another file's runs have names of their own.
run "setup" {
  command = plan
}
