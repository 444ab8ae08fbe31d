"""The rows the server keeps: players, tables (with their seats and settings), the actions of each table
in order, chat lines, results and ratings. Plain data, independent of how they are stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# A table's life: seats open, then play (every seat taken), then finished; abandoned when everyone left
# before the end; broken when a restart could not bring it back (its ``problem`` says why).
TABLE_STATUSES = ("waiting", "playing", "finished", "abandoned", "broken")
# Ratings are kept apart for matches among people only and for matches with a bot at the table.
RATING_POOLS = ("people", "bots")


@dataclass
class PlayerRow:
    id: int
    name: str


@dataclass
class SeatRow:
    """Who holds a seat: ``kind`` is ``empty``, ``person`` (then ``player_id``) or ``bot`` (then ``bot``,
    a bot string)."""

    seat: int
    kind: str = "empty"
    name: str = ""
    player_id: int | None = None
    bot: str | None = None
    left: bool = False  # a person who left during the match: a bot plays his seat to the end


@dataclass
class TableRow:
    id: str  # short, URL-safe
    game: str  # the game string
    rules_version: str
    seed: int
    settings: dict[str, Any]  # the table's own options (turn timer, bot pace, ...), JSON-ready
    seats: list[SeatRow]
    status: str = "waiting"
    owner_id: int | None = None
    rematch_of: str | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now().astimezone())
    finished_at: datetime | None = None
    problem: str | None = None  # why a broken table could not be brought back


@dataclass
class ActionRow:
    """The ``number``-th action of a table's record (1-based)."""

    table_id: str
    number: int
    seat: int
    action: int


@dataclass
class ChatRow:
    table_id: str
    player_id: int | None
    name: str
    text: str
    id: int = 0
    at: datetime = field(default_factory=lambda: datetime.now().astimezone())


@dataclass
class ResultRow:
    """One seat's result in a finished match: its final score and its share of the win (1 / winners)."""

    table_id: str
    seat: int
    player_id: int | None
    score: int
    win_share: float


@dataclass
class RatingRow:
    """A player's rating in one game and pool (openskill's mu and sigma)."""

    player_id: int
    game: str  # the game's name (hokm, svara, ...), not the game string
    pool: str
    mu: float
    sigma: float
    games: int = 0
    name: str = ""
