empty_tuple = []
tuple = [1, "two", three]
empty_object = {}
object = {
  a = 1
  b: 2
  "quoted" = 3
  (paren) = 4
  (a.b) = 5
  (a).b = 5.5
  (a) + 1 = 5.6
  a.b = 6
  "${x}-key" = 7
  true = 8
  null = 9
  (null) = 10
  1 = 11
}
call = max(1, 2, 3)
expanded = max(list...)
nullary = timestamp()
for_tuple = [for v in list : v.name]
for_tuple_key = [for i, v in list : "${i}=${v}" if v != null]
for_object = {for k, v in map : upper(k) => v}
for_object_group = {for v in list : v.key => v... if v.ok}
for_key = { (for) = 1 }
