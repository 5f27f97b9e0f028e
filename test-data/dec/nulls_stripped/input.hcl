settings = {
  zeta  = 1
  alpha = null
  mid   = [null, { inner = null, kept = "<&>" }]
}
