locals {
  account = "123"
}
