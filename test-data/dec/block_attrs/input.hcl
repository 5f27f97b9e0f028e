tags {
  team  = "infra"
  level = 3
}
