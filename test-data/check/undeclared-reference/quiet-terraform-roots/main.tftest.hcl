# A test file: `run.NAME` and the test's own blocks are its roots.
run "setup" {
  command = plan
}

run "check" {
  variables {
    names = run.setup.names
  }
  assert {
    condition     = aws_instance.web[0].ami == data.aws_ami.ubuntu.id && run.setup.ok
    error_message = "Wrong AMI."
  }
}
