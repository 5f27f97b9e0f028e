# Nomad replaces its runtime variables in strings when it places a task.
job "example" {
  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }
}
