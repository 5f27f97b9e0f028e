# In a hidden directory.
name = "café"
