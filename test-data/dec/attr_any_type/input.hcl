anything = { list = [1, "two", true], nested = { deep = null } }
untyped  = [for i in [1, 2, 3] : i * 2]
