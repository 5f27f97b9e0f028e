a = {q = r.s, (t) = 1, (u.v) = w, "lit" = c ? d.e : !f, g = -h.i, j = k["l"][m] == n}
