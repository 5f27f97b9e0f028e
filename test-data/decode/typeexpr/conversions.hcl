case "primitive" {
  type  = string
  value = 5
}
case "list of strings from a tuple" {
  type  = list(string)
  value = ["a", 1, true]
}
case "list of numbers fails" {
  type  = list(number)
  value = ["a"]
}
case "optional without default becomes null" {
  type  = object({a = string, b = optional(number)})
  value = {a = "x"}
}
case "default fills a missing attribute" {
  type  = object({a = string, b = optional(number, 3)})
  value = {a = "x"}
}
case "default fills a null attribute" {
  type  = object({a = string, b = optional(number, 3)})
  value = {a = "x", b = null}
}
case "given attribute wins" {
  type  = object({a = string, b = optional(number, 3)})
  value = {a = "x", b = 4}
}
case "required attribute missing" {
  type  = object({a = string, b = optional(number, 3)})
  value = {b = 1}
}
case "nested default object gets its own defaults" {
  type = object({
    inner = optional(object({
      x = optional(string, "ix")
      y = optional(number)
    }), {})
  })
  value = {}
}
case "list of objects with defaults" {
  type  = list(object({name = string, port = optional(number, 80)}))
  value = [{name = "a"}, {name = "b", port = 8080}]
}
case "map of objects with defaults" {
  type  = map(object({enabled = optional(bool, true)}))
  value = {one = {}, two = {enabled = false}}
}
case "set of objects with defaults" {
  type  = set(object({k = string, v = optional(string, "dv")}))
  value = [{k = "a"}, {k = "b", v = "given"}]
}
case "tuple element defaults" {
  type  = tuple([object({a = optional(string, "d")}), number])
  value = [{}, 2]
}
case "null value stays null" {
  type  = object({a = optional(string, "x")})
  value = null
}
case "any keeps the value's type" {
  type  = any
  value = {a = [1, 2]}
}
case "map of any unifies" {
  type  = map(any)
  value = {a = 1, b = "two"}
}
