# Under a directory ignored by .gitignore.
name = "café"
