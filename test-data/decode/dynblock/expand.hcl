a "static0" {
  val = "static a 0"
}

b {
  c {
    val0 = "static c 0"
  }
  dynamic "c" {
    for_each = ["dynamic c 0", "dynamic c 1"]
    iterator = dyn_c
    content {
      val0 = dyn_c.value
      val1 = "${dyn_c.key}:${greeting}"
    }
  }
}

dynamic "a" {
  for_each = var.items
  labels   = ["dynamic${a.key}"]
  content {
    val = "dynamic a ${a.key} ${a.value}"
  }
}

dynamic "b" {
  for_each = {first = ["x", "y"], second = []}
  iterator = outer
  content {
    c {
      val0 = "static c in ${outer.key}"
    }
    dynamic "c" {
      for_each = outer.value
      content {
        val0 = "${outer.key}/${c.key}=${c.value}"
        val1 = upper(c.value)
      }
    }
  }
}

a "static1" {
  val = "static a 1"
}
