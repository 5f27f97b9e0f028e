# In .terraform/, the cache of downloaded modules.
name = "café"
