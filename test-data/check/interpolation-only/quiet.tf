# Templates with text, several interpolations or directives are strings.
locals {
  greeting = "Hello, ${var.name}!"
  pair     = "${var.a}${var.b}"
  spaced   = " ${var.a}"
  list     = "%{for s in var.xs}${s},%{endfor}"
  escaped  = "$${not.an.interpolation}"
  plain    = "text"
  empty    = ""
  heredoc  = <<EOT
${var.a}
EOT
}
