# With no name, find_in_parent_folders finds the JSON configuration above.
include "root" {
  path = find_in_parent_folders()
}

# Found beside the configuration the search finds: no such file there.
include "shared" {
  path = "${dirname(find_in_parent_folders("terragrunt.hcl.json"))}/_shared/not-there.hcl"
}
