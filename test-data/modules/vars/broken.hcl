region = upper(var.other)
