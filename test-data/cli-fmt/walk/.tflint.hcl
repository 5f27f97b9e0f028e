config {
format="compact"
}
