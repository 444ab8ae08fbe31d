"""Matching people who pressed "Play now": a pure function from the people waiting for one pool (a game,
its variant and pace) to the tables to make, run in waves (every few seconds, or at once when a table's
worth is waiting), as lichess runs its pools. No clock, store or socket: the caller gives the time.

Choices (issue 49):

- **Who sits together.** Never a person and someone he blocks or who blocks him. Not two people who just
  played together, for the first :data:`RECENT_GRACE` seconds of their waits (after that an opponent he
  knows beats a bot). Ratings close: each person accepts those within his *band*, which starts at
  :data:`BAND_START` points of the shown scale and widens by :data:`BAND_PER_SECOND` a second waited up to
  :data:`BAND_CAP` (lichess widens by 12 points a wave of a few seconds); a pair must be within both bands.
- **Who goes first.** The longest waiting, counted from when he pressed, except that a person who left
  tables as soon as they were dealt counts :data:`LEAVER_PENALTY` seconds later for each such table, up
  to :data:`LEAVER_PENALTY_CAP` (he waits behind those who do not, for his bots too).
- **Bots.** A person chooses ``after_wait`` (the default: bots fill the empty seats once he has waited
  ``bot_wait`` seconds, the bound shown counting down), ``now`` (bots at once, with whoever is waiting
  and fits) or ``people_only`` (he waits for a full table of people, however long; never bot-filled).
  A table made with bots for one person takes along the others waiting who fit and accept bots.
- **Seats of bots at tables of people.** A table started by "Play now" offers its bots' seats
  (:class:`OpenTable`); a person waiting who fits everyone seated there (blocks, recent pairs, band
  against each) takes one when no full table of people could be made for him in :data:`TAKEOVER_AFTER`
  seconds, if its next deal starts within his bound (``now`` for "with bots now"; any time for people
  only). The table seats him at that deal's start. (Taken at once, a seat whose deal starts in 9 s held
  people who would have met others in the next second: at 100 people a second, p90 9.7 s against 0.1 s.)
- **Order of a wave.** Full tables of people first (by the longest waiting), then open bots' seats, then
  those due their bots. A person is in at most one result of a wave; a table never gets more people than
  its seats.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Choice = Literal["after_wait", "now", "people_only"]
CHOICES: tuple[Choice, ...] = ("after_wait", "now", "people_only")

BAND_START = 150.0  # points of the shown rating scale (1500 + 48 (mu - 25)) accepted at once
BAND_PER_SECOND = 30.0  # widening a second waited
BAND_CAP = 1200.0  # the widest band: past it, anyone of the pool
RECENT_GRACE = 20.0  # seconds during which people who just played together are not matched again
LEAVER_PENALTY = 5.0  # seconds later a person counts for each table he left as soon as it was dealt
LEAVER_PENALTY_CAP = 30.0
TAKEOVER_AFTER = 3.0  # seconds a person waits for a table of people before a bot's seat is his
BOT_WAIT = 10.0  # the default bound before bots fill the empty seats (seconds)


@dataclass(frozen=True)
class Seeker:
    """A person waiting in a pool. ``avoid``: the people he must not sit with (he blocks them, or they
    him); ``recent``: those he just played with; ``leaves``: the tables he left as soon as dealt lately."""

    player: str
    rating: float
    since: float
    choice: Choice = "after_wait"
    avoid: frozenset[str] = frozenset()
    recent: frozenset[str] = frozenset()
    leaves: int = 0

    def __post_init__(self) -> None:
        if self.choice not in CHOICES:
            raise ValueError(f"choice {self.choice!r} is none of {', '.join(CHOICES)}")
        if self.leaves < 0:
            raise ValueError(f"leaves {self.leaves} is negative")

    @property
    def counted_from(self) -> float:
        """When his wait counts from (a leaver's later)."""
        return self.since + min(LEAVER_PENALTY_CAP, LEAVER_PENALTY * self.leaves)

    def waited(self, now: float) -> float:
        return max(0.0, now - self.counted_from)

    def band(self, now: float) -> float:
        return min(BAND_CAP, BAND_START + BAND_PER_SECOND * self.waited(now))


@dataclass(frozen=True)
class OpenTable:
    """A table of people started by "Play now" whose bots' seats are open to people: its ``people`` (as
    seekers: their ratings, blocks and recent pairs count as a waiting person's) and ``open`` bot seats."""

    table: str
    people: tuple[Seeker, ...]
    open: int
    next_deal: float = 0.0  # when its next deal starts (a person taking a seat is dealt in then)


@dataclass(frozen=True)
class NewTable:
    """A table to make: its people (in the order they waited) and the bots filling the other seats."""

    players: tuple[str, ...]
    bots: int


@dataclass(frozen=True)
class Takeover:
    """A person seated at an open table in a bot's seat (from that table's next deal)."""

    table: str
    player: str


@dataclass
class Wave:
    """What one wave decided."""

    tables: list[NewTable] = field(default_factory=list)
    takeovers: list[Takeover] = field(default_factory=list)

    def seated(self) -> list[str]:
        return [p for t in self.tables for p in t.players] + [t.player for t in self.takeovers]


def fits(a: Seeker, b: Seeker, now: float) -> bool:
    """Whether ``a`` and ``b`` may sit at one table now."""
    return _fits(a, b, min(a.waited(now), b.waited(now)), min(a.band(now), b.band(now)))


def _fits(a: Seeker, b: Seeker, shorter_wait: float, narrower_band: float) -> bool:
    """The rule of :func:`fits`, given the shorter of the two waits and the narrower of the two bands."""
    if a.player == b.player or a.player in b.avoid or b.player in a.avoid:
        return False
    if (a.player in b.recent or b.player in a.recent) and shorter_wait < RECENT_GRACE:
        return False
    return abs(a.rating - b.rating) <= narrower_band


def due(seeker: Seeker, now: float, bot_wait: float) -> bool:
    """Whether ``seeker`` is to be seated with bots in this wave."""
    if seeker.choice == "people_only":
        return False
    return seeker.choice == "now" or seeker.waited(now) >= bot_wait


def bound(seeker: Seeker, now: float, bot_wait: float) -> float:
    """By when ``seeker`` is to be dealt (people only: no bound)."""
    if seeker.choice == "people_only":
        return float("inf")
    return now if seeker.choice == "now" else max(now, seeker.counted_from + bot_wait)


def match(
    seekers: Iterable[Seeker],
    seats: int,
    now: float,
    bot_wait: float = BOT_WAIT,
    open_tables: Sequence[OpenTable] = (),
) -> Wave:
    """One wave for one pool of tables of ``seats`` seats: the tables to make and the bots' seats taken.
    Everyone not in the result waits for the next wave."""
    if seats < 1:
        raise ValueError(f"seats {seats} is below 1")
    if bot_wait < 0:
        raise ValueError(f"bot_wait {bot_wait} is negative")
    waiting = sorted(seekers, key=lambda s: (s.counted_from, s.player))
    if len({s.player for s in waiting}) != len(waiting):
        raise ValueError("a person is waiting twice in one pool")
    by_rating = sorted(waiting, key=lambda s: (s.rating, s.player))
    ratings = [s.rating for s in by_rating]
    taken: set[str] = set()
    wave = Wave()
    # Each person's wait and band once a wave (``fits`` computes them per pair: most of a wave's time).
    waited = {s.player: s.waited(now) for s in waiting}
    bands = {s.player: s.band(now) for s in waiting}

    def together(a: Seeker, b: Seeker) -> bool:
        """``fits(a, b, now)`` for two waiting people, from the wave's waits and bands."""
        return _fits(a, b, min(waited[a.player], waited[b.player]), min(bands[a.player], bands[b.player]))

    def group_for(anchor: Seeker, accept_people_only: bool) -> list[Seeker]:
        """``anchor`` and those nearest his rating who fit everyone chosen, up to ``seats``."""
        group = [anchor]
        band = bands[anchor.player]
        lo = bisect.bisect_left(ratings, anchor.rating - band)
        hi = bisect.bisect_right(ratings, anchor.rating + band)
        near = sorted(
            (s for s in by_rating[lo:hi] if s.player not in taken and s.player != anchor.player),
            key=lambda s: (abs(s.rating - anchor.rating), s.counted_from, s.player),
        )
        for candidate in near:
            if len(group) == seats:
                break
            if not accept_people_only and candidate.choice == "people_only":
                continue
            if all(together(candidate, member) for member in group):
                group.append(candidate)
        return group

    def seat(group: list[Seeker], bots: int) -> None:
        group.sort(key=lambda s: (s.counted_from, s.player))
        wave.tables.append(NewTable(tuple(s.player for s in group), bots))
        taken.update(s.player for s in group)

    # 1. Full tables of people, the longest waiting first.
    for anchor in waiting:
        if len(waiting) - len(taken) < seats:
            break
        if anchor.player in taken:
            continue
        group = group_for(anchor, accept_people_only=True)
        if len(group) == seats:
            seat(group, 0)
    # 2. Bots' seats at tables of people, to the longest waiting who fit everyone there.
    free = {t.table: t.open for t in open_tables}
    for anchor in waiting:
        if anchor.player in taken:
            continue
        for table in open_tables:
            # (one waiting for people only takes a table's last bot's seat alone: then it has no bot)
            last = anchor.choice == "people_only"
            if (
                (free[table.table] == 1 if last else free[table.table] > 0)
                and anchor.waited(now) >= TAKEOVER_AFTER
                and table.next_deal <= bound(anchor, now, bot_wait)
                and all(fits(anchor, p, now) for p in table.people)
            ):
                free[table.table] -= 1
                taken.add(anchor.player)
                wave.takeovers.append(Takeover(table.table, anchor.player))
                break
    # 3. Those due their bots, with whoever waits, fits and accepts bots.
    for anchor in waiting:
        if anchor.player in taken or not due(anchor, now, bot_wait):
            continue
        group = group_for(anchor, accept_people_only=False)
        seat(group, seats - len(group))
    return wave


def next_due(seekers: Iterable[Seeker], now: float, bot_wait: float = BOT_WAIT) -> float | None:
    """The earliest time someone still waiting is due his bots (when the next wave must run at the
    latest; None: nobody will be)."""
    times = [s.counted_from + bot_wait for s in seekers if s.choice == "after_wait"]
    times += [now for s in seekers if s.choice == "now"]
    return min(times) if times else None
