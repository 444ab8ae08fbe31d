"""Playing matches with bots: one match, many matches, statistics."""
