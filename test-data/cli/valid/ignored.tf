# Ignored by .gitignore.
name = "café"
