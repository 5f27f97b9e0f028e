terraform {
  source = "git::https://example.com/modules.git//net?ref=v1"
}
