bool_kw       = bool
string_kw     = string
number_kw     = number
any_kw        = any
list_kw       = list
map_kw        = map
set_kw        = set
object_kw     = object
tuple_kw      = tuple
unknown_kw    = foo
quoted        = "string"
number_lit    = 1
traversal     = string.foo
list_string   = list(string)
set_bool      = set(bool)
map_number    = map(number)
list_any      = list(any)
nested        = list(map(set(string)))
list_no_arg   = list()
list_two_args = list(string, number)
list_three    = map(string, number, bool)
bool_call     = bool()
any_call      = any(string)
unknown_call  = wrong(string)
optional_top  = optional(string)
tuple_empty   = tuple([])
tuple_types   = tuple([string, number, any])
tuple_not_list = tuple(string)
tuple_bad_elem = tuple([string, foo])
object_empty  = object({})
object_attrs  = object({name = string, "quoted" = number})
object_not_map = object(string)
object_traversal_key = object({a.b = string})
object_bad_type = object({a = foo, b = list()})
optional_attr = object({a = string, b = optional(number)})
optional_default = object({a = optional(string, "x"), b = optional(list(number), [1, 2])})
optional_no_arg = object({a = optional()})
optional_three = object({a = optional(string, "x", "y")})
optional_bad_default = object({a = optional(number, "not a number")})
optional_default_converts = object({a = optional(string, 5), b = optional(set(string), ["x", "x"])})
optional_default_var = object({a = optional(string, var.x)})
nested_defaults = list(object({
  a = optional(object({
    b = optional(string, "inner")
    c = optional(number, 1)
  }), {})
  d = optional(map(object({e = optional(bool, true)})))
}))
tuple_defaults = tuple([object({a = optional(string, "x")}), string])
optional_kw   = optional
list_quoted   = list("string")
default_incompatible = object({ a = optional(string, "hello"), b = optional(number, true) })
default_nested_in_map = map(object({ a = string, b = optional(number, 5) }))
