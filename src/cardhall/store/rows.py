"""The rows the server keeps: players (guests and accounts), tables (with their seats and settings),
the actions of each table in order, chat lines, results, ratings and their history, and what a rating
update reads. Plain data, independent of how they are stored."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from cardhall.table import SeatKind


class TableStatus(StrEnum):
    """A table's life: seats open, then play (every seat taken), then finished; abandoned when everyone
    left before it started (or the operator stopped it); broken when a restart could not bring it back
    (its ``problem`` says why). Values are the JSON's and the database's words."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    BROKEN = "broken"

    @property
    def is_open(self) -> bool:
        """Whether the server holds the table and brings it back after a restart."""
        return self in (TableStatus.WAITING, TableStatus.PLAYING)


TABLE_STATUSES = tuple(TableStatus)
# Ratings are kept apart for matches among people only and for matches with a bot at the table.
RATING_POOLS = ("people", "bots")


@dataclass
class PlayerRow:
    """A player: a guest (his token his only credential) until he makes himself an account (a unique
    user name, which is then his name, and a password)."""

    id: int
    name: str
    guest: bool = True
    # Why he is banned, as the lookup of a credential read it with him (``Store.player_by_token``,
    # ``player_by_session``: one query for both), None if he is not; other reads leave it None.
    banned: str | None = None


# The kinds a stored seat may have: a person here is one over the network (the server's Table seats him as
# ``remote``).
STORED_SEAT_KINDS = (SeatKind.EMPTY, SeatKind.PERSON, SeatKind.BOT)


@dataclass
class SeatRow:
    """Who holds a seat: ``kind`` is ``empty``, ``person`` (then ``player_id``) or ``bot`` (then ``bot``,
    a bot string). A person who took a bot's seat during the match (Play now, issue 49) holds it from
    action ``since`` + 1 on: ``before`` is that bot's string (its name the same), None for a seat held
    from the first deal; a replay deals the bot in and seats him after action ``since``."""

    seat: int
    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    player_id: int | None = None
    bot: str | None = None
    left: bool = False  # a person who left during the match: a bot plays his seat to the end
    guest: bool = False  # a person without an account when he sat down: shown as a guest
    since: int = 0  # the actions played before he held the seat (0 with ``before`` None: from the start)
    before: str | None = None  # the bot that held the seat until then (its bot string)

    def __post_init__(self) -> None:
        kind = SeatKind(self.kind)  # (read back from JSON as a plain string)
        if kind not in STORED_SEAT_KINDS:
            raise ValueError(f"a stored seat is empty, a person or a bot, not {kind.value!r}")
        self.kind = kind


@dataclass
class TableRow:
    id: str  # short, URL-safe
    game: str  # the game string
    rules_version: str
    seed: int
    settings: dict[str, Any]  # the table's own options (turn timer, bot pace, ...), JSON-ready
    seats: list[SeatRow]
    status: TableStatus = TableStatus.WAITING
    owner_id: int | None = None
    rematch_of: str | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now().astimezone())
    finished_at: datetime | None = None
    problem: str | None = None  # why a broken table could not be brought back
    # The owner's fencing number: raised at every change of owner (cardhall.server.cluster.leases);
    # the store writes the table's actions, seats and end only while the row holds this number.
    fence: int = 1
    node: str | None = None  # the process that owns the table (None: the one process, or nobody)
    play_now: str | None = None  # made by Play now: its pool's name (cardhall.server.playnow)

    def __post_init__(self) -> None:
        self.status = TableStatus(self.status)  # (read back from the database as a plain string)


@dataclass
class ActionRow:
    """The ``number``-th action of a table's record (1-based); ``stand_in``: made by the bot standing in
    for the person in ``seat`` (his timer ran out, he was away, or he left), not by him."""

    table_id: str
    number: int
    seat: int
    action: int
    stand_in: bool = False


@dataclass
class ChatRow:
    table_id: str
    player_id: int | None
    name: str
    text: str
    id: int = 0
    at: datetime = field(default_factory=lambda: datetime.now().astimezone())


# Why a person's match was played by a stand-in (cardhall.server.ratings): he left it, or a stand-in
# made more than half of his seat's decisions while he was away.
ABSENCES = ("left", "away")


@dataclass
class ResultRow:
    """One seat's result in a finished match: its final score and its share of the win (1 / winners;
    0 for a person whose match a stand-in played: ``absent`` says why, one of :data:`ABSENCES`)."""

    table_id: str
    seat: int
    player_id: int | None
    score: int
    win_share: float
    absent: str | None = None


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
    guest: bool = True


@dataclass
class RatingHistoryRow:
    """A player's rating in one game and pool right after one rated match."""

    table_id: str
    game: str
    pool: str
    mu: float
    sigma: float
    at: datetime


@dataclass
class RatingInputs:
    """What a finished match's rating update reads, all inside the transaction that stores it: the
    people's current ratings in the match's game and pool, how many finished matches among people only
    each has played before this one, which of them are accounts, and how many matches each pair of
    them finished together within the window the rater asked for (key: the two ids, lower first)."""

    current: dict[int, RatingRow]
    played: dict[int, int]
    accounts: set[int]
    pairs: dict[tuple[int, int], int]


@dataclass(frozen=True)
class SeekerFacts:
    """What Play now reads of a person when he seeks a game (:meth:`~cardhall.store.ratings.Ratings.seeker`):
    his mu in the game's ``people`` pool (None: never rated there), the people he blocks, those who block
    him, the people of his recent matches, and how many tables he left in their first deal lately."""

    mu: float | None
    blocks: frozenset[int]
    blockers: frozenset[int]
    recent: frozenset[int]
    leaves: int


@dataclass
class MatchRow:
    """One finished match of a player, for his page: the table, its game string, when it finished,
    his seat, score and share of the win, and every seat's name and player (None: a bot)."""

    table_id: str
    game: str
    finished_at: datetime | None
    seat: int
    score: int
    win_share: float
    seats: list[SeatRow]
    absent: str | None = None  # his match was played by a stand-in: why (ResultRow)


@dataclass
class RatingRequest:
    """A finished match's rating update, done by the store inside the transaction that stores the
    match's end: it reads :class:`RatingInputs` for ``players`` (the people's ids) in ``game`` and
    ``pool`` (pairs counted since ``since``), calls ``compute`` with them, and stores the ratings it
    returns with a history entry each."""

    game: str
    pool: str
    players: list[int]
    since: datetime
    compute: Callable[[RatingInputs], list[RatingRow]]


@dataclass
class ReviewRow:
    """A stored review of one seat's decisions in a finished match (:func:`cardhall.review.review`'s
    JSON), with the budget and seed it was made with: the same three give the same review."""

    table_id: str
    seat: int
    budget: int
    seed: int
    review: dict[str, Any]
    created_at: datetime = field(default_factory=lambda: datetime.now().astimezone())


# --- playing with people one knows (issue 25, part B) --------------------------------------------

ROLES = ("moderator",)  # the roles a player may be given (``cardhall admin moderator add``)


@dataclass
class ReportRow:
    """A chat line reported to the moderators: the line's text, table and sender are copied, so the
    report reads the same whatever happens to the line later."""

    reporter_id: int
    line_id: int
    table_id: str
    sender_id: int | None
    sender_name: str
    text: str
    reason: str
    id: int = 0
    at: datetime = field(default_factory=lambda: datetime.now().astimezone())
