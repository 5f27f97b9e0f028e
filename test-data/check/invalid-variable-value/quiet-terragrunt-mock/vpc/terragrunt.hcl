# The vpc unit deploys the module beside it.
