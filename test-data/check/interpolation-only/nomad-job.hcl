# A Nomad job in a .hcl file: known by its top-level job block.
job "example" {
  group "web" {
    constraint {
      attribute = "${node.unique.name}"
      operator  = "!="
      value     = "worker-1"
    }
  }
}
