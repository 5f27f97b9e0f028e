a = x ? y : z
b = p ? q ? r : s : t ? u : v
c = (x ? 1 : 2) + 3
