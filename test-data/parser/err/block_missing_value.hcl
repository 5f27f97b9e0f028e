block = {
attr
}
c = 3
