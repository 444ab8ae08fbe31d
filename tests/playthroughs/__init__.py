"""Golden playthroughs (see regenerate.py)."""
