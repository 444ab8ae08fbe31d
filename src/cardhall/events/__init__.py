"""Tournaments' formats, pure: the arena (fixed minutes, seated again at once, points per place with a
streak bonus) and duplicate Swiss (fixed rounds, the same deals at every table with the hands rotated,
matchpoints, seating by the standings), and the standings of both as a function of the stored records.
Design and decisions: ``docs/tournaments.md``.

Where it stands: beside the Table, below the front ends (``tests/test_architecture.py``): it imports
nothing of cardhall but :mod:`cardhall.errors` and itself, no server, no store, no I/O; frozen
dataclasses in, plain values out. The server's director (``cardhall.server.events``) reads the store,
calls these functions and acts on what they return, so the standings are recomputed from the store
after any restart and on any process.

The modules: :mod:`~cardhall.events.model` (the values), :mod:`~cardhall.events.points` (points per
place, the streak), :mod:`~cardhall.events.partition` (the minimum-cost seating both formats use),
:mod:`~cardhall.events.arena`, :mod:`~cardhall.events.duplicate`, :mod:`~cardhall.events.standings`,
and :mod:`~cardhall.events.schedule` (recurrences: the one module needing a package outside the
standard library, ``python-dateutil`` of the server's extra; not imported here, so the formats load
without it, and the rules engine never needs it).
"""

from cardhall.events.arena import Free, seat_free
from cardhall.events.duplicate import hand_holder, held_hand, matchpoints, scored_hands, swiss_seating
from cardhall.events.model import (
    BOT_RATING,
    Entrant,
    EventInputError,
    HandResult,
    Standing,
    TableResult,
    TableSeat,
)
from cardhall.events.points import place_points, places, streak_bonus
from cardhall.events.standings import ArenaTally, arena_standings, duplicate_standings

__all__ = [
    "BOT_RATING",
    "ArenaTally",
    "Entrant",
    "EventInputError",
    "Free",
    "HandResult",
    "Standing",
    "TableResult",
    "TableSeat",
    "arena_standings",
    "duplicate_standings",
    "hand_holder",
    "held_hand",
    "matchpoints",
    "place_points",
    "places",
    "scored_hands",
    "seat_free",
    "streak_bonus",
    "swiss_seating",
]
