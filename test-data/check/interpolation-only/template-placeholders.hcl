# A templatefile() template of a Consul configuration: the quotes are part of
# the output, and a bare name is a placeholder, not a reference.
acl {
  tokens {
    agent   = "${token}"
    default = "${token}"
  }
}
