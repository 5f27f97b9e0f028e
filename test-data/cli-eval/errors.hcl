ok      = upper("fine")
missing = nosuchfunc(1)
typo    = uper("x")
