a = {
  list = [for k, v in m : v + k + n if v != z]
  obj  = {for i, v in m : v.name => [for j in v.items : j + i + outer] if i.x[other] != v[dyn].y}
  shadow = [for v in v : v]
  local_dyn = [for v in l : v[x].y]
  tpl = "%{ for x in xs }${x}${y}%{ endfor }"
}
