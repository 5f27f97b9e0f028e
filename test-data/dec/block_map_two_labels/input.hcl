resource "disk" "a" {
  size = "10G"
}
resource "disk" "b" {
  size = "20G"
}
resource "net" "a" {
  size = "small"
}
