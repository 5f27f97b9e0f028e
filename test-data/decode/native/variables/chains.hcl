a = [a[x][y].c, a[b[c]].d, a[-1].e, a[(1)].f, a[1 + 1].g, f(x).b[y], a.0.b, a[1.5], a[true][null]["s"]]
