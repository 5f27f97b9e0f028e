where      = "${region}/${zones[0]}"
zone_count = length(zones)
