a = 2
b = "two"
svc "y" {
}
other {}
