# A valid neighbour: checked, and nothing to say about it.
output "ok" {
  value = true
}
