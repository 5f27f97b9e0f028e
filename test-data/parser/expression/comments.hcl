# a comment
foo # trailing
