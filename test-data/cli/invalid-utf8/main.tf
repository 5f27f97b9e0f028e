# Saved by an editor set to Latin-1: the last e-acute below is not UTF-8.
greeting = "hÃ©llo café"
