f = "--var-file"
g = "--var-file"
