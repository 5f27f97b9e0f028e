a = add_one(41)
b = shout("hi")
c = smallest(5, 3, 9)
