resource "a" "b" {
  count = 1
  nested {
    deep {
      x = 1
    }
  }
}
a = f(g(
  1
))
b = [{
  x = 1
  }, {
  y = 2
}]
c = {
  d = [
1] }
e = foo({
  bar = 1
  }
)
