resource "a${b}" "c" {
}
