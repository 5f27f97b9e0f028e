a = f()
b = max(1, 2, 3)
c = concat(xs, ys...)
d = format(
  "%s",
  x,
)
e = upper(lower("X"))
