"""The person's terminal front end: one person at a Table against bots.

It shows the person only his own seat's view (``table.observation(seat)``) and his own event stream
(``table.events(seat)``), asks the Game API for the legal actions and their labels, and never decides a
rule itself. Modules: :mod:`.style` (cards as text, colour, one sort order), :mod:`.narrate` (one line
per event), :mod:`.screen` (the compact table per game), :mod:`.menu` (the numbered choices and reading an
answer), :mod:`.rulebook_text` (rules and phase hints), :mod:`.saved` (save files), :mod:`.session` (the
play loop) and :mod:`.viewer` (stepping through a finished game with all hands open).
"""
