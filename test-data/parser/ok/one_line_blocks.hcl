a { b = 1 }
c "label" { d = [1, 2] }
e {}
