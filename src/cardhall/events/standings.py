"""An event's standings, a pure function of what the store holds: the entrants and the finished tables'
records (an arena) or the deals' results (duplicate). The server recomputes them from the store after
any restart and whenever a table ends; nothing here is kept between calls.

Choices:

- **Arena**: each table's places from its final scores (ties share, :func:`cardhall.events.points.places`),
  points per place (:func:`cardhall.events.points.place_points`), doubled on a streak, in the order
  the tables ended; a table a stand-in mostly played earns its person 0 and breaks his streak. Order:
  points, then performance, then player (for a stable list; equal points and performance share a rank).
- **Duplicate**: matchpoints (:func:`cardhall.events.duplicate.scored_hands`); order: the share
  (matchpoints over what he could have made, so a person who missed a round is not ranked by a total
  he could not reach), then the strength (the mean share of his table-mates, people only, one count
  per table he shared with each: Buchholz's idea), then the performance; equal on all three share a rank.
- **Performance** (both formats): the mean rating of those he was compared with (arena: the other seats
  of his tables; duplicate: the other holders of his hands; a bot, and a person of unknown rating, at
  1500) plus ``400 x (2 x result - 1)`` where result is his share of the comparisons won (1/2 a tie):
  FIDE's linear performance, +400 for winning everything. 0 before his first finished table.
- **Who is listed**: every entrant, and anyone with a result who is no longer an entrant (a person who
  withdrew keeps his line); bots never.
"""

from __future__ import annotations

from bisect import insort
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from math import fsum

from cardhall.events.duplicate import scored_hands
from cardhall.events.model import BOT_RATING, Entrant, EventInputError, HandResult, Standing, TableResult
from cardhall.events.points import place_points, places, streak_bonus, streak_points, won_alone

PERFORMANCE_SPREAD = 400  # rating points above the opponents' mean for winning every comparison


def performance(opponents: float, result: float) -> float:
    """FIDE's linear performance: the opponents' mean rating + 400 x (2 x result - 1), result in 0..1."""
    return opponents + PERFORMANCE_SPREAD * (2 * result - 1)


def ranked(lines: list[Standing], key: Callable[[Standing], tuple[float, ...]]) -> list[Standing]:
    """The lines in the order of ``key`` (smaller first), ranks shared on an equal key (1, 1, 3), ties
    listed by player."""
    keyed = sorted(((key(s), s.player, s) for s in lines), key=lambda k: (k[0], k[1]))
    out: list[Standing] = []
    rank, before = 0, None
    for i, (k, _, line) in enumerate(keyed):
        if i == 0 or k != before:
            rank, before = i + 1, k
        out.append(line if line.rank == rank else _with_rank(line, rank))
    return out


def _with_rank(s: Standing, rank: int) -> Standing:
    # (positional: dataclasses.replace took a quarter of an arena's 1,000 standings)
    return Standing(
        s.player,
        rank,
        s.points,
        s.matchpoints,
        s.share,
        s.strength,
        s.performance,
        s.tables,
        s.firsts,
        s.streak,
    )


def _check_table(table: TableResult) -> None:
    people = [s.player for s in table.seats if s.player is not None]
    if len(set(people)) != len(people):
        raise EventInputError(f"table {table.table}: a person in two seats {sorted(people)}")
    if len(table.seats) < 2:
        raise EventInputError(f"table {table.table}: {len(table.seats)} seats")


def arena_standings(entrants: Sequence[Entrant], tables: Iterable[TableResult]) -> list[Standing]:
    """The arena's standings from its entrants and its finished tables (the module's docstring)."""
    tally = ArenaTally()
    for table in tables:
        tally.add(table)
    return tally.standings(entrants)


@dataclass
class _Seat:
    """What one finished table gave one person: where it sorts in his history, its place points and
    whether he won it alone (the streak's inputs), his performance at it, his table-mates."""

    order: tuple[float, str]  # (ended, table): the order his tables ended in
    points: int
    first: bool
    performance: float
    mates: list[str]


class ArenaTally:
    """An arena's standings kept table by table: a director adds each table as it ends instead of
    reading them all again, and :meth:`standings` equals :func:`arena_standings` of every table added,
    in whatever order they were added (a table that ended earlier than one already added takes its
    place in the person's history, so his streak is counted in the order the tables ended). A table
    added twice counts once. The cost of a table is its seats; :meth:`standings` costs the people and
    their table-mates (the strength reads everyone's points), not the tables."""

    def __init__(self) -> None:
        self._tables: set[str] = set()
        self._seats: dict[str, list[_Seat]] = defaultdict(list)  # person -> his tables, in order
        self._totals: dict[str, int] = {}
        # person -> his mean performance, tables won alone, whether on a streak, his table-mates (kept
        # as his tables come: the standings then cost a look-up a table-mate)
        self._summary: dict[str, tuple[float, int, bool, list[str]]] = {}

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, table: str) -> bool:
        return table in self._tables

    def add(self, table: TableResult) -> bool:
        """Count a finished table (:class:`EventInputError` when it is malformed); False when it was
        counted already."""
        if table.table in self._tables:
            return False
        _check_table(table)
        seats = len(table.seats)
        place = places([s.score for s in table.seats], table.lowest_wins)
        points = place_points(place, seats)
        self._tables.add(table.table)
        for i, seat in enumerate(table.seats):
            if seat.player is None:
                continue
            others = [s for j, s in enumerate(table.seats) if j != i]
            beaten = (
                0.0
                if seat.absent
                else sum(
                    1.0 if p > place[i] else 0.5 if p == place[i] else 0.0
                    for j, p in enumerate(place)
                    if j != i
                )
            )
            mine = _Seat(
                (table.ended, table.table),
                0 if seat.absent else points[i],
                not seat.absent and won_alone(place, i),
                performance(_mean([_rating(s.rating) for s in others]), beaten / len(others)),
                [s.player for s in others if s.player is not None],
            )
            history = self._seats[seat.player]
            insort(history, mine, key=lambda s: s.order)
            self._totals[seat.player] = sum(streak_points([(s.points, s.first) for s in history]))
            firsts = [s.first for s in history]
            self._summary[seat.player] = (
                _mean([s.performance for s in history]),
                sum(firsts),
                streak_bonus(firsts) > 1,
                [m for s in history for m in s.mates],
            )
        return True

    def standings(self, entrants: Sequence[Entrant]) -> list[Standing]:
        """The standings of ``entrants`` (and of anyone with a table counted), best first."""
        players = list(dict.fromkeys([*(e.player for e in entrants), *self._seats]))
        totals = {p: self._totals.get(p, 0) for p in players}
        per_table = {p: totals[p] / len(self._seats[p]) if self._seats.get(p) else 0.0 for p in players}
        lines = []
        nobody: tuple[float, int, bool, list[str]] = (0.0, 0, False, [])
        for p in players:
            perf, firsts, streak, mates = self._summary.get(p, nobody)
            strength = fsum(map(per_table.__getitem__, mates)) / len(mates) if mates else 0.0
            tables = len(self._seats[p]) if p in self._seats else 0
            lines.append(Standing(p, 0, totals[p], 0.0, 0.0, strength, perf, tables, firsts, streak))
        return ranked(lines, lambda s: (-s.points, -s.performance))


def duplicate_standings(
    entrants: Sequence[Entrant], hands: Sequence[HandResult], *, lowest_wins: bool = False
) -> list[Standing]:
    """The duplicate event's standings from its entrants and every seat's result in every deal played
    (the module's docstring)."""
    rating = {e.player: e.rating for e in entrants}
    earned: dict[str, float] = defaultdict(float)
    could: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[float]] = defaultdict(list)
    groups: dict[tuple[int, int, int], list[HandResult]] = defaultdict(list)
    at: dict[str, set[str]] = defaultdict(set)  # table -> people
    for r in hands:
        groups[(r.round, r.deal, r.hand)].append(r)
        if not r.is_bot:
            at[r.table].add(r.player)
    for r, points, compared in scored_hands(hands, lowest_wins=lowest_wins):
        if r.is_bot:
            continue
        earned[r.player] += points
        could[r.player] += compared
        opponents[r.player] += [
            BOT_RATING if o.is_bot else rating.get(o.player, BOT_RATING)
            for o in groups[(r.round, r.deal, r.hand)]
            if o is not r
        ]
    players = list(dict.fromkeys([*rating, *earned]))
    share = {p: earned[p] / could[p] if could[p] else 0.0 for p in players}
    lines = []
    for p in players:
        tables = [t for t, people in at.items() if p in people]
        mates = [m for t in tables for m in at[t] if m != p]
        lines.append(
            Standing(
                player=p,
                rank=0,
                matchpoints=earned[p],
                share=share[p],
                strength=_mean([share[m] for m in mates]),
                performance=performance(_mean(opponents[p]), share[p]) if opponents[p] else 0.0,
                tables=len(tables),
            )
        )
    return ranked(lines, lambda s: (-s.share, -s.strength, -s.performance))


def _rating(value: float | None) -> float:
    return BOT_RATING if value is None else value


def _mean(values: Sequence[float]) -> float:
    # fsum is exactly rounded, so the mean does not depend on the order the store returned the records
    # in (a plain sum's last bit did, and could split a tie differently after a restart)
    return fsum(values) / len(values) if values else 0.0
