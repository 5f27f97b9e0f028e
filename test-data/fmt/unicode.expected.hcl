locals {
  m = { "ключ" = 1
  "ĉu" = { ŝ = 1 } }
  名前     = "值"
  é      = 2
  emoji  = "👍🏽"  # thumbs
  abc    = 3    # c
  hindi  = "क्ष" # an Indic conjunct: two clusters for the reference
  family = "👨‍👩‍👧"  # one cluster
  flag   = "🇫🇷"  # one cluster
}
