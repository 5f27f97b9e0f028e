# A valid neighbour: checked, and nothing to say about it.
ok = true
