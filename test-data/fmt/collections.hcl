a = [1,2,3]
b = [ 1 , 2 , 3 ]
c = {a=1,b=2}
d = {"x":1, "y" : 2}
e = [
  {
  a = [
  [1,
  2],
  ]
  },
]
f = [[[]]]
g = {x={y={z=1}}}
h = [for x in [1,2]: x]
i = tomap({
  a = 1
})
j = concat([
  1,
  ], [
  2,
])
k = [
  1, 2,
  3, 4]
l = {
  "key" : "value"
  other: 1,
}
