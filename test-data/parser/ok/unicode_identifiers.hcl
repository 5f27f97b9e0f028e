ключ = "значение"
clé_é = 1
name-with-dashes = 2
_under = 3
