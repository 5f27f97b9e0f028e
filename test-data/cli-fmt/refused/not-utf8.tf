greeting="café"
