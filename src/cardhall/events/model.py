"""The values the tournament formats read and return: who entered, what a finished table stored, what a
seat made of one hand of a duplicate deal, and a line of the standings. Frozen dataclasses, nothing else.

Choices:

- A player is a ``str`` (the server's account or guest id, as text): the core never learns what a
  player is, only that two equal strings are one person.
- A bot is never a player of the standings. At a table it is a seat whose ``player`` is None
  (:class:`TableSeat`); in a duplicate deal a :class:`HandResult` with ``is_bot`` (its ``player`` is
  then any text the server likes, e.g. ``"bot:3"``: it is never looked up).
- Ratings are the shown ratings (1500 a new player's, :mod:`cardhall.server.ratings`); a bot counts at
  :data:`BOT_RATING` where a rating is needed (a performance).
- Scores are the game's own numbers; ``lowest_wins`` says which way they point (penalty-point games).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardhall.errors import CardhallError

BOT_RATING = 1500.0  # a bot's rating where one is needed (a new player's shown rating)


class EventInputError(CardhallError):
    """Input a tournament function cannot use (a table of the wrong size, a player twice at one table);
    the message names the input and why."""


@dataclass(frozen=True)
class Entrant:
    """A person signed up to an event: ``rating`` his shown rating in the event's pool when he joined
    (or now), ``rank`` his place in the current standings (1 = leading; round 1 of a duplicate event
    and an arena's start: his place by rating)."""

    player: str
    rating: float = BOT_RATING
    rank: int = 0


@dataclass(frozen=True)
class TableSeat:
    """One seat of a finished event table, from its stored record: ``player`` None for a bot (a bot
    that filled the seat from the start; a person's stand-in is still his seat, with ``absent``),
    ``score`` the match's final score, ``absent`` when a stand-in mostly played his match (the board
    rule of :func:`cardhall.server.ratings.absence`: it earns him nothing), ``rating`` his rating
    before the match (None: unknown, counted as :data:`BOT_RATING`)."""

    player: str | None
    score: float
    absent: bool = False
    rating: float | None = None


@dataclass(frozen=True)
class TableResult:
    """A finished event table: ``table`` its id, ``round`` the duplicate round (0 in an arena),
    ``index`` its index in the round (the hand rotation of :func:`cardhall.events.duplicate.hand_holder`),
    ``ended`` when it ended (seconds, any epoch: only the order matters, for an arena's streaks),
    ``seats`` in seat order, ``lowest_wins`` the game's direction."""

    table: str
    seats: tuple[TableSeat, ...]
    ended: float = 0.0
    round: int = 0
    index: int = 0
    lowest_wins: bool = False


@dataclass(frozen=True)
class HandResult:
    """What one seat made of one hand of one duplicate deal: ``deal`` the deal's number in its round
    (the same at every table of the round: they play the same cards), ``hand`` which hand (the seat the
    round's deal gives it to, before the rotation), ``score`` that seat's score for the deal (the game's
    ``deal_scored`` numbers), ``is_bot`` a bot's (compared against, never scored), ``table`` the table's
    id (his table-mates: those with the same table), ``round`` the round, ``absent`` when a stand-in
    mostly played this match (0 matchpoints for it; the others are compared with its score as usual)."""

    player: str
    deal: int
    hand: int
    score: float
    is_bot: bool = False
    table: str = ""
    round: int = 0
    absent: bool = False


@dataclass(frozen=True)
class Standing:
    """One line of an event's standings. ``rank`` 1 = first, equal on every tie-break sharing a rank;
    ``points`` the arena's points (0 in duplicate); ``matchpoints`` and ``share`` (matchpoints over the
    matchpoints he could have made, 0..1) duplicate's (0 in an arena); ``strength`` the mean share (or
    arena points a table) of his table-mates among people; ``performance`` a performance rating (the
    mean rating of those he was compared with, +-400 by his result: :mod:`cardhall.events.standings`;
    0 before his first finished table);
    ``tables`` the finished tables he sat at; ``firsts`` the tables he won alone; ``streak`` whether
    he is on a streak now (arena: his next table's points are doubled)."""

    player: str
    rank: int
    points: int = 0
    matchpoints: float = 0.0
    share: float = 0.0
    strength: float = 0.0
    performance: float = 0.0
    tables: int = 0
    firsts: int = 0
    streak: bool = False


def check_seating(names: Sequence[str], seats: int, table: str, who: str) -> None:
    """Refuse (:class:`EventInputError`) ``seats`` below 2 or a person listed twice, in the words of the
    format that seats them (``table``: "an arena table"; ``who``: "free players")."""
    if seats < 2:
        raise EventInputError(f"{table} has at least 2 seats, not {seats}")
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise EventInputError(f"{who} listed twice: {twice}")
