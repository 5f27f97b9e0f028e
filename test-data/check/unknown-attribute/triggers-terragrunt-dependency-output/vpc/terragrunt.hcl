# A unit deploying the module beside it.
inputs = {}
