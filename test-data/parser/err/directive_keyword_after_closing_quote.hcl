# Found by the eval fuzzer: after the closing quote, `"endif` is no directive
# (the parser took the quote for the `%{` of an endif).
e"%{if}"endif
