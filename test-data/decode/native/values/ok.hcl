a = 1 + 2 * 3
b = "x${true}y"
c = { k = [1, "two", null], (1 + 1) = false }
d = [for v in [1, 2, 3] : v * 2 if v > 1]
e = <<-EOT
    indented
      more
    EOT
f = 10 / 4 > 2 ? "big" : "small"
