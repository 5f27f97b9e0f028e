plain      = upper("x")
provider   = provider::aws::arn_parse(var.arn)
spaced     = provider :: test ::upper("x")
core       = core::lower("ABC")
two_parts  = ns::f()
nested     = provider::a::f(provider::b::g(1), [for x in xs : ns::h(x)]...)
template   = "${provider::t::upper("t")}-x"
multi_line = provider::a::f(
  1,
  2,
)
