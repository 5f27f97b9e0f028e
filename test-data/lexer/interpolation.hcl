a = "${x}"
b = "pre ${ x + 1 } mid %{ if y }yes%{ else }no%{ endif } post"
c = "${ {k = "v"}.k }}"
d = "${ "inner ${ "innermost" }" }"
e = "${ f("}") }"
f = "${
x
}"
