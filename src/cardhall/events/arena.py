"""The arena's seating: whoever is free when a table ends is seated again at once, with others who are
free, by a minimum-cost partition into tables of the game's size (lichess's arena pairing, for three- to
eleven-seat tables).

Choices:

- **The cost** of a seating is the sum over every pair at one table of ``1000 x rank gap + rating gap
  + 8,000,000 if they met recently`` (lichess's arena: the rank is the place in the current standings,
  so leaders meet leaders; the repeat cost outweighs any spread of ranks among up to 2,000 people a
  table, so people who just met are kept apart whenever the free pool allows it). ``recent`` is each
  person's set of people met at his last table(s): the server decides how far back (say one table).
- **Exact up to 12 free people**, a local-improvement heuristic beyond (:mod:`cardhall.events.partition`).
- **Who waits**: with ``n`` free for tables of ``seats``, ``n % seats`` people are left over. The ones
  freed last wait (the longest waiting are seated first; ties by player), unless the left-over people
  have waited ``min_wait`` seconds or more (``now - since``: the most recent of them, so all of them):
  then everyone is seated and one table is short, for the server to fill with bots. ``min_wait`` 0 (the
  default) seats everyone at once, bots filling: an arena never waits; the server may pass a few
  seconds to let a table end and bring people instead of bots.
- The result is a list of tables, each a tuple of players in seat order (the order of the partition:
  the format does not choose seats; the server may shuffle them). A table shorter than ``seats`` is
  the short one: ``seats - len(table)`` bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardhall.events.model import check_seating
from cardhall.events.partition import REPEAT, partition

RANK_WEIGHT = 1000  # the cost of one place of rank between two people at one table


@dataclass(frozen=True)
class Free:
    """A person free to be seated: ``rating`` his shown rating, ``rank`` his place in the standings
    (1 = leading), ``since`` when he became free (seconds, the same clock as ``now``), ``recent`` the
    people he met at his last table(s)."""

    player: str
    rating: float
    rank: int
    since: float
    recent: frozenset[str] = frozenset()


def pair_cost(a: Free, b: Free) -> float:
    """The cost of seating ``a`` and ``b`` at one table (the module's docstring)."""
    met = b.player in a.recent or a.player in b.recent
    return RANK_WEIGHT * abs(a.rank - b.rank) + abs(a.rating - b.rating) + (REPEAT if met else 0)


def seat_free(
    free: Sequence[Free], seats: int, now: float, *, min_wait: float = 0.0
) -> list[tuple[str, ...]]:
    """The tables to make now from the ``free`` people, for tables of ``seats`` (module's docstring):
    tables of ``seats`` players, and at most one shorter table (to fill with bots) when the people left
    over have waited ``min_wait`` seconds. Nobody is on two tables; those in no table wait. Raises
    :class:`EventInputError` for ``seats`` below 2 or a person listed twice."""
    check_seating([f.player for f in free], seats, "an arena table", "free players")
    waiting = sorted(free, key=lambda f: (f.since, f.player))
    left_over = len(waiting) % seats
    short = 0
    if left_over:
        newest = waiting[-1]
        if now - newest.since >= min_wait:
            short = left_over
        else:
            waiting = waiting[: len(waiting) - left_over]
    if not waiting:
        return []
    by_rank = sorted(
        range(len(waiting)), key=lambda i: (waiting[i].rank, waiting[i].rating, waiting[i].player)
    )
    cost = [[pair_cost(a, b) for b in waiting] for a in waiting]
    tables = partition(cost, seats, short, order=by_rank)
    return [tuple(waiting[i].player for i in table) for table in tables]
