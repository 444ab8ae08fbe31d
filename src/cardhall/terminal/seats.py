"""Seats as a person reads and types them: counted from 1, as the browser counts them ("sits at seat 1").

Decision (issue 51): one numbering wherever a person sees or types a seat: the page, the terminal game,
and every command's options and printed lines (``play --seat``, ``review --seat``, ``replay``,
``simulate``'s table) count from 1. The Game API, records, save files, the server's HTTP API and every
``--json`` output keep the engine's seats, counted from 0 (documented in ``docs/protocol.md`` and the
README); this module is the one place that turns one into the other.
"""

from __future__ import annotations

from cardhall.core import Game
from cardhall.errors import InvalidOptionError


def shown(seat: int) -> int:
    """The number a person reads for an engine seat."""
    return seat + 1


def seat_name(seat: int) -> str:
    """``"seat 1"`` for engine seat 0."""
    return f"seat {seat + 1}"


def seat_names(seats: object) -> str:
    """Engine seats as a person reads them: ``"seat 1"``, ``"seats 1 and 3"``, ``"nobody"``."""
    numbers = [str(s + 1) for s in seats] if isinstance(seats, list | tuple) else []
    if not numbers:
        return "nobody"
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


def seat_option(value: int, game: Game, option: str = "--seat") -> int:
    """The engine seat a person typed (``--seat 1`` is seat 0); a seat not at the table is refused,
    naming the option and the seats there are."""
    n = game.num_players
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
        raise InvalidOptionError(
            f"{option} {value}: {game} has seats 1 to {n} (counted from 1, as the page counts them)"
        )
    return value - 1
