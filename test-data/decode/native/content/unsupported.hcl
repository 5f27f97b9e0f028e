# content: a! foo svc[name]
b = 1
fooo = 2
svc "a" "b" {
}
svc {
}
svc "q" {
}
bar {}
a2 = 3
svcs "x" {}
foo {}
