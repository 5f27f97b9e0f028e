a = {b #comment
}
c = 1 +// comment
d = 2
