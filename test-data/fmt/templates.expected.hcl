a = "hello ${var.name}!"
b = "${var.a}${var.b}"
c = "%{if var.x}yes%{else}no%{endif}"
d = "%{for x in var.list}${x},%{endfor}"
e = "${~var.x~}"
f = "${ { a = 1 } }"
g = "$${literal} %%{literal}"
h = "${func(1, 2)}"
i = "a ${"nested ${var.x}"} b"
j = <<EOT
%{if var.x~}
  ${var.x}
%{~endif}
EOT
k = "${- 1}"
l = "${var.m[0]}"
m = ""
