# Values made of one interpolation and nothing else are unwrapped.
a = var.x
b = var.x
c = local.a.b[0] # a trailing comment stays
d = var.x
e = (var.a ?
1 : 2)
f = (var.a +
1)
g = foo("${bar}")
h = "${x}"
i = x /* inside */
j = x # to the end of the line

k = <<EOT
text
EOT

resource "null_resource" "r" {
  triggers = var.t
  type     = var.t
  nested { one_line = var.o }
}

variable "v" {
  default = var.d
}

# Anything else stays quoted.
l = "a${x}"
m = "${x}${y}"
n = "${x} "
o = ["${x}"]
p = { k = "${x}" }
q = "%{if a}b%{endif}"
r = <<EOT
${x}
EOT
s = "${<<EOT
${x}
EOT
}"
t = ("${x}")
u = "plain"
v = "$${x}"
w = f("${x}")
