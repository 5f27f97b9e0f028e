inputs = {
  engine = "postgres"
}
