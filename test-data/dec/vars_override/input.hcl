name = name
kept = kept
