"""Who sits with whom at an event's next tables: pure functions of who is free, his standing, rating
and whom he met.

- **Cost** of seating two people together (the arena's, after lichess's pairing): 1000 × their rank gap
  + their rating gap + 8,000,000 when they met at one of their last tables; a table's cost is its
  pairs' sum.
- **Greedy, then swaps**: the free people in standing order, each table the first person still free
  and the n - 1 others who cost least with those already at it; then any swap of two people between two
  tables that lowers the total cost is made, until none does (at most :data:`SWAP_PASSES` passes). Not
  exact: at 60 free people a pass costs about 60² pair costs, well under a millisecond's budget.
- **Leftovers** fewer than a table: in an arena they wait for the next wave unless the first of them has
  waited ``min_wait`` seconds, then they sit with bots; in a duplicate round the last table is filled by
  bots at once (every signed-up person plays every round).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SWAP_PASSES = 4
REPEAT_COST = 8_000_000


@dataclass(frozen=True)
class Free:
    player: int
    rank: int
    rating: float
    since: float  # when he became free (seconds, the caller's clock)
    recent: frozenset[int] = frozenset()


def _pair(a: Free, b: Free) -> float:
    cost = 1000 * abs(a.rank - b.rank) + abs(a.rating - b.rating)
    if b.player in a.recent or a.player in b.recent:
        cost += REPEAT_COST
    return cost


def _table_cost(table: Sequence[Free]) -> float:
    return sum(_pair(a, b) for i, a in enumerate(table) for b in table[i + 1 :])


def partition(people: Sequence[Free], seats: int) -> list[list[Free]]:
    """Full tables of ``seats`` from ``people`` (in their order: the leaders first), the rest left out."""
    pool = list(people)
    tables: list[list[Free]] = []
    while len(pool) >= seats:
        table = [pool.pop(0)]
        while len(table) < seats:
            best = min(range(len(pool)), key=lambda i: sum(_pair(pool[i], t) for t in table))
            table.append(pool.pop(best))
        tables.append(table)
    for _ in range(SWAP_PASSES):
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                for a in range(seats):
                    for b in range(seats):
                        before = _table_cost(tables[i]) + _table_cost(tables[j])
                        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                        if _table_cost(tables[i]) + _table_cost(tables[j]) < before:
                            improved = True
                        else:
                            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
        if not improved:
            break
    return tables


def arena_tables(
    free: Sequence[Free], seats: int, now: float, min_wait: float
) -> list[tuple[list[int], int]]:
    """The arena's next tables: (people, bots needed) each (see the module)."""
    ordered = sorted(free, key=lambda f: (f.rank, -f.rating, f.player))
    tables = partition(ordered, seats)
    seated = {f.player for t in tables for f in t}
    out = [([f.player for f in t], 0) for t in tables]
    rest = [f for f in ordered if f.player not in seated]
    if rest and now - min(f.since for f in rest) >= min_wait:
        out.append(([f.player for f in rest], seats - len(rest)))
    return out


def swiss_tables(
    order: Sequence[int], ratings: Mapping[int, float], met: Mapping[int, frozenset[int]], seats: int
) -> list[tuple[list[int], int]]:
    """A duplicate round's tables from the standings' ``order`` (round 1: by rating): leaders together,
    meetings again avoided; the last table filled by bots."""
    people = [
        Free(p, rank, ratings.get(p, 1500.0), 0.0, met.get(p, frozenset())) for rank, p in enumerate(order)
    ]
    tables = partition(people, seats)
    seated = {f.player for t in tables for f in t}
    out = [([f.player for f in t], 0) for t in tables]
    rest = [f.player for f in people if f.player not in seated]
    if rest:
        out.append((rest, seats - len(rest)))
    return out
