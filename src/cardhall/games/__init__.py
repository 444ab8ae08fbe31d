"""One module per game; :mod:`cardhall.registry` finds the Game classes here by itself."""
