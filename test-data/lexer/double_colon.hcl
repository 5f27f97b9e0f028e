a = provider::x::f(1)
b = "${ns::g()}"
