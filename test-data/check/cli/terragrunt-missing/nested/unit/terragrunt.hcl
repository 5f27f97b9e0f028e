# With no name, find_in_parent_folders finds the JSON configuration above.
include "root" {
  path = find_in_parent_folders()
}
