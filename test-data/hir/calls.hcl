plain = upper("x")
namespaced = provider :: aws::arn_parse(var.arn)
expanded = core::lower(xs...)
