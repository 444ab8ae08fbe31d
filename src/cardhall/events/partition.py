"""A minimum-cost partition of people into tables, the one search under both formats' seating (an
arena's free players, a duplicate round's Swiss): the cost of a seating is the sum, over every pair
seated at one table, of the pair's cost (a matrix the format fills: rank and rating gaps, a heavy cost
for people who met recently).

Choices:

- **Exact up to :data:`EXACT_LIMIT` people**: a dynamic programme over subsets (the lowest person left
  is seated with every choice of companions; memoised on the set left), at most 2^12 sets.
- **Beyond, a heuristic**: the people in the format's order (rank, then rating) cut into consecutive
  tables (what the rank gap alone makes best), then local improvement: swap two people of two tables
  whenever it lowers the cost, first among neighbouring tables (``window`` tables apart), then, for a
  table still holding a repeat meeting, with every other table, until no swap helps or
  :data:`MAX_PASSES` passes; from :data:`STARTS` cuts (the order rotated by one person each), the
  cheapest kept. For tables of up to 3 (three tables hold 9 people or fewer), three neighbouring
  tables at a time are then seated again exactly, which reaches what no swap of two does (a person
  moving on through a third table: pairs that met keep two-person tables stuck otherwise). No optimum
  is promised; the benchmark (``benchmarks/events.md``) measures its time and its cost beside the
  exact search's, and the tests check it leaves no repeat where the last round's tables make one
  avoidable.
- One table may be short (``short`` people: a remainder the server fills with bots); it is placed
  where it costs least (exactly in the programme; in the heuristic, at the end of the order and then
  improved like the rest).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

EXACT_LIMIT = 12  # people partitioned exactly; beyond, the heuristic
MAX_PASSES = 20  # rounds of local improvement in the heuristic
STARTS = 3  # local searches from shifted cuts; the cheapest seating is kept
RESPLIT_LIMIT = 9  # three tables of up to this many people in all are seated again exactly
REPEAT = 8_000_000  # a pair's cost for meeting again (lichess's arena's figure)

Matrix = Sequence[Sequence[float]]


def table_cost(cost: Matrix, table: Sequence[int]) -> float:
    """The sum of the pair costs of one table."""
    return sum(cost[a][b] for a, b in combinations(table, 2))


def seating_cost(cost: Matrix, tables: Sequence[Sequence[int]]) -> float:
    """The sum of the pair costs of every table."""
    return sum(table_cost(cost, t) for t in tables)


def partition(
    cost: Matrix, size: int, short: int = 0, *, order: Sequence[int] | None = None
) -> list[list[int]]:
    """Tables of ``size`` people (indexes of ``cost``), and one table of ``short`` people when
    ``short`` > 0, covering everyone (``len(cost) == k * size + short``), at the least total cost
    (exact up to :data:`EXACT_LIMIT` people, a heuristic beyond: the module's docstring). ``order``:
    the people from the first to the last by the format's order (the heuristic's start), default
    0, 1, 2, ..."""
    n = len(cost)
    if size < 1 or short < 0 or short >= size or (n - short) % size:
        raise ValueError(f"cannot seat {n} people at tables of {size} with a short table of {short}")
    if n <= EXACT_LIMIT:
        return exact(cost, size, short)
    return heuristic(cost, size, short, list(order) if order is not None else list(range(n)))


def exact(cost: Matrix, size: int, short: int) -> list[list[int]]:
    """The least-cost partition by a dynamic programme over the sets of people left."""
    n = len(cost)

    @cache
    def best(left: int, short_left: bool) -> tuple[float, tuple[tuple[int, ...], ...]]:
        if not left:
            return 0.0, ()
        first = (left & -left).bit_length() - 1
        rest = [i for i in range(first + 1, n) if left >> i & 1]
        found: tuple[float, tuple[tuple[int, ...], ...]] = (float("inf"), ())
        sizes = [size] + ([short] if short_left else [])
        for group in sizes:
            if group - 1 > len(rest):
                continue
            for mates in combinations(rest, group - 1):
                table = (first, *mates)
                mask = left
                for i in table:
                    mask &= ~(1 << i)
                later, tables = best(mask, short_left and group != short)
                total = table_cost(cost, table) + later
                if total < found[0]:
                    found = (total, (table, *tables))
        return found

    full = (1 << n) - 1
    _, tables = best(full, short > 0)
    best.cache_clear()
    return [list(t) for t in tables]


def heuristic(cost: Matrix, size: int, short: int, order: list[int], window: int = 2) -> list[list[int]]:
    """The best of :data:`STARTS` local searches (:func:`improve`), each from the tables cut in ``order``
    with the cuts shifted by one more person (the order rotated), the short table last."""
    best: list[list[int]] = []
    best_cost = float("inf")
    for shift in range(min(STARTS, size)):
        turned = order[shift:] + order[:shift]
        tables = [turned[i : i + size] for i in range(0, len(turned) - short, size)]
        if short:
            tables.append(turned[len(turned) - short :])
        tables = improve(cost, tables, window)
        total = seating_cost(cost, tables)
        if total < best_cost:
            best, best_cost = tables, total
    if size * 3 <= RESPLIT_LIMIT:
        best = resplit(cost, best, size, order, window)
    return best


def resplit(
    cost: Matrix, tables: list[list[int]], size: int, order: list[int], window: int
) -> list[list[int]]:
    """Three tables at a time, neighbours by their people's mean place in the order, seated again
    exactly (what no swap of two people reaches: a person moving on through a third table), then
    swaps again; until nothing changes (or :data:`MAX_PASSES`)."""
    position = {p: i for i, p in enumerate(order)}
    for _ in range(MAX_PASSES):
        tables.sort(key=lambda t: sum(position[p] for p in t) / len(t))
        changed = False
        for i in range(len(tables) - 2):
            group = tables[i] + tables[i + 1] + tables[i + 2]
            short = next((len(t) for t in tables[i : i + 3] if len(t) != size), 0)
            sub = [[cost[a][b] for b in group] for a in group]
            before = sum(table_cost(cost, t) for t in tables[i : i + 3])
            found = exact(sub, size, short)
            if seating_cost(sub, found) < before - 1e-9:
                tables[i : i + 3] = [[group[k] for k in t] for t in found]
                changed = True
        if not changed:
            break
        tables = improve(cost, tables, window)
    return tables


def improve(cost: Matrix, tables: list[list[int]], window: int) -> list[list[int]]:
    """Swaps that lower the cost until none does (or :data:`MAX_PASSES`): first between tables at
    most ``window`` apart, then every table holding a repeat meeting with every other table."""
    costs = [table_cost(cost, t) for t in tables]
    for _ in range(MAX_PASSES):
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, min(len(tables), i + 1 + window)):
                improved |= _improve_pair(cost, tables, costs, i, j)
        for i in range(len(tables)):
            if has_repeat(cost, tables[i]):
                for j in range(len(tables)):
                    if j != i:
                        improved |= _improve_pair(cost, tables, costs, i, j)
        if not improved:
            break
    return tables


def has_repeat(cost: Matrix, table: Sequence[int]) -> bool:
    """Whether two people of ``table`` have met (their pair costs the repeat's cost or more)."""
    return any(cost[a][b] >= REPEAT for a, b in combinations(table, 2))


def _improve_pair(cost: Matrix, tables: list[list[int]], costs: list[float], i: int, j: int) -> bool:
    """Make the best swap of one person of table i with one of table j, if any lowers their cost."""
    a, b = tables[i], tables[j]
    best_gain, best_swap = 1e-9, None
    for x in range(len(a)):
        pa = a[x]
        # the cost of pa's seat at a without him, and with each of b's people
        rest_a = [p for k, p in enumerate(a) if k != x]
        a_without = sum(cost[pa][p] for p in rest_a)
        for y in range(len(b)):
            pb = b[y]
            b_without = sum(cost[pb][p] for k, p in enumerate(b) if k != y)
            gain = a_without + b_without
            gain -= sum(cost[pb][p] for p in rest_a)
            gain -= sum(cost[pa][p] for k, p in enumerate(b) if k != y)
            if gain > best_gain:
                best_gain, best_swap = gain, (x, y)
    if best_swap is None:
        return False
    x, y = best_swap
    a[x], b[y] = b[y], a[x]
    costs[i], costs[j] = table_cost(cost, a), table_cost(cost, b)
    return True
