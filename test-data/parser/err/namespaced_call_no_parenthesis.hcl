no_call = provider::test::upper
next = 1
