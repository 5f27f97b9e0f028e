no_name = provider::test::("x")
next = 1
