a = 1
svc "x" {
}
extra = true
