a = { k = [{ x = "1", y = [true, false, true] }] }
