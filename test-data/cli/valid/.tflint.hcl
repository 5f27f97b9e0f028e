# A hidden file, not in a hidden directory: still checked.
plugin "terraform" {
  enabled = true
}
