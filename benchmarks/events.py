"""Tournaments' pure core, timed (``cardhall.events``): a duplicate Swiss round's seating for 200
players (issue 50's target: under 1 s), the arena's seating of free pools of 3 to 60 drawn from a
1,000-player arena, and the standings recomputed from every record of a whole event (what the
server does at each table's end). Each is measured beside a baseline run back to back in the same
process: Board Game Arena's rule (tables cut in order, no cost for meeting again).

    python benchmarks/events.py                 # the figures of benchmarks/events.md
    python benchmarks/events.py --quick         # a smoke run (a few seconds)

CPU time of this process (``time.process_time``), so other work on a shared machine disturbs it less
than wall time would. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TypeVar

import cardhall
from cardhall.events import (
    ArenaTally,
    Entrant,
    Free,
    HandResult,
    TableResult,
    TableSeat,
    arena_standings,
    duplicate_standings,
    seat_free,
    swiss_seating,
)
from cardhall.events.arena import RANK_WEIGHT
from cardhall.events.duplicate import swiss_order
from cardhall.events.partition import REPEAT, exact, heuristic, seating_cost

T = TypeVar("T")


def timed(call: Callable[[], T]) -> tuple[T, float]:
    started = time.process_time()
    out = call()
    return out, time.process_time() - started


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def repeats(tables: Sequence[Sequence[str]], met: dict[str, frozenset[str]]) -> int:
    return sum(1 for t in tables for a, b in combinations(t, 2) if b in met.get(a, frozenset()))


def cut_in_order(order: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The baseline: tables of ``seats`` cut in order (Board Game Arena's multiplayer Swiss)."""
    return [tuple(order[i : i + seats]) for i in range(0, len(order), seats)]


# ---- duplicate Swiss


def swiss(players: int, game: str, rounds: int, deals: int, seed: int) -> list[str]:
    """A whole duplicate event in the pure core: each round seated, its deals scored at random, the
    standings recomputed from every hand so far; one row a round."""
    seats = cardhall.load_game(game).num_players
    rng = random.Random(seed)
    skill = {f"p{i}": rng.gauss(0, 1) for i in range(players)}
    entrants = [Entrant(p, round(1500 + 150 * s + rng.gauss(0, 100))) for p, s in skill.items()]
    met: dict[str, frozenset[str]] = {}
    met_base: dict[str, frozenset[str]] = {}
    hands: list[HandResult] = []
    rows = []
    for rnd in range(1, rounds + 1):
        tables, ours = timed(lambda: swiss_seating(entrants, seats, met, rnd))  # noqa: B023
        order = [e.player for e in swiss_order(entrants, rnd)]
        base, theirs = timed(lambda: cut_in_order(order, seats))  # noqa: B023
        spread = statistics.mean(
            max(order.index(p) for p in t) - min(order.index(p) for p in t) for t in tables if len(t) > 1
        )
        rows.append(
            f"| {rnd} | {len(tables)} | {ours * 1000:.0f} ms | {theirs * 1000:.2f} ms | "
            f"{repeats(tables, met)} | {repeats(base, met_base)} | {spread:.1f} |"
        )
        for index, table in enumerate(tables):
            seated = list(table) + [f"bot{index}.{k}" for k in range(seats - len(table))]
            for seat, player in enumerate(seated):
                hand = (seat - index) % seats
                for deal in range(deals):
                    noise = rng.gauss(0, 1)
                    bot = player.startswith("bot")
                    score = round(10 * ((0.0 if bot else skill[player]) + noise))
                    hands.append(HandResult(player, deal, hand, score, bot, f"r{rnd}t{index}", rnd))
            for p in table:
                met[p] = met.get(p, frozenset()) | (frozenset(table) - {p})
        for t in base:
            for p in t:
                met_base[p] = met_base.get(p, frozenset()) | (frozenset(t) - {p})
        now = entrants
        lines, took = timed(lambda: duplicate_standings(now, hands))  # noqa: B023
        rows[-1] += f" {len(hands)} | {took * 1000:.0f} ms |"
        rank = {s.player: s.rank for s in lines}
        entrants = [Entrant(e.player, e.rating, rank[e.player]) for e in entrants]
    return rows


# ---- arena


def arena_pools(players: int, seats: int, sizes: Sequence[int], calls: int, seed: int) -> list[str]:
    """Free pools of each size drawn from an arena of ``players`` (ranks 1..players, ratings N(1500,
    200), each person's last table-mates his ``recent``): ``seat_free`` timed per call beside the
    baseline (cut in rank order), and the seatings' costs and repeat meetings compared."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    rating = {p: rng.gauss(1500, 200) for p in names}
    shuffled = names[:]
    rng.shuffle(shuffled)
    last = {p: frozenset(t) - {p} for t in cut_in_order(shuffled, seats) for p in t}
    by_rating = sorted(names, key=lambda p: -rating[p])
    rank = {p: i + 1 for i, p in enumerate(by_rating)}
    rows = []
    for size in sizes:
        ours_t, base_t, ratio, ours_rep, base_rep = [], [], [], 0, 0
        for _ in range(calls):
            pool = [Free(p, rating[p], rank[p], 0.0, last[p]) for p in rng.sample(names, size)]
            tables, took = timed(lambda: seat_free(pool, seats, now=10.0))  # noqa: B023
            order = [f.player for f in sorted(pool, key=lambda f: (f.rank, f.player))]
            base, base_took = timed(lambda: cut_in_order(order, seats))  # noqa: B023
            ours_t.append(took)
            base_t.append(base_took)
            by = {f.player: f for f in pool}

            def cost(ts: Sequence[Sequence[str]], by: dict[str, Free] = by) -> float:  # (gaps; no repeats)
                pairs = [(by[a], by[b]) for t in ts for a, b in combinations(t, 2)]
                return sum(RANK_WEIGHT * abs(a.rank - b.rank) + abs(a.rating - b.rating) for a, b in pairs)

            ratio.append(cost(tables) / cost(base) if cost(base) else 1.0)
            ours_rep += repeats(tables, last)
            base_rep += repeats(base, last)
        rows.append(
            f"| {size} | {calls} | {pct(ours_t, 0.5) * 1e3:.2f} ms | {pct(ours_t, 0.99) * 1e3:.2f} ms | "
            f"{pct(base_t, 0.5) * 1e6:.0f} µs | {statistics.mean(ratio):.2f} | {ours_rep} | {base_rep} |"
        )
    return rows


def heuristic_vs_exact(people: int, seats: int, calls: int, seed: int) -> str:
    """What the heuristic (used beyond 12 free) gives up: both searches on the same pools of ``people``
    (ranks and ratings drawn at random, the last tables a random cut), the cost ratio and the time."""
    rng = random.Random(seed)
    ratios, exact_t, heur_t = [], [], []
    for _ in range(calls):
        ranks = [rng.randint(1, 1000) for _ in range(people)]
        ratings = [rng.gauss(1500, 200) for _ in range(people)]
        perm = list(range(people))
        rng.shuffle(perm)
        met = {
            (a, b) for i in range(0, people, seats) for a in perm[i : i + seats] for b in perm[i : i + seats]
        }
        cost = [
            [
                RANK_WEIGHT * abs(ranks[a] - ranks[b])
                + abs(ratings[a] - ratings[b])
                + REPEAT * ((a, b) in met)
                for b in range(people)
            ]
            for a in range(people)
        ]
        best, took = timed(lambda: exact(cost, seats, 0))  # noqa: B023
        order = sorted(range(people), key=lambda i: ranks[i])
        found, took_h = timed(lambda: heuristic(cost, seats, 0, order))  # noqa: B023
        ratios.append(seating_cost(cost, found) / seating_cost(cost, best))
        exact_t.append(took)
        heur_t.append(took_h)
    return (
        f"| {people} | {seats} | {calls} | {pct(exact_t, 0.5) * 1e3:.2f} ms | "
        f"{pct(heur_t, 0.5) * 1e3:.2f} ms | "
        f"{statistics.mean(ratios):.3f} | {max(ratios):.3f} | {sum(r > 1 + 1e-9 for r in ratios)} |"
    )


def arena_event(players: int, seats: int, tables: int, seed: int) -> str:
    """The standings of an arena of ``players`` after ``tables`` finished tables, from the records."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    records = []
    for i in range(tables):
        at = rng.sample(names, seats)
        seats_ = tuple(
            TableSeat(None if rng.random() < 0.1 else p, rng.randint(0, 500), rating=1500.0) for p in at
        )
        records.append(TableResult(f"t{i}", seats_, ended=float(i)))
    entrants = [Entrant(p) for p in names]
    _, took = timed(lambda: arena_standings(entrants, records))
    # The director's way: the tables added as they end (the last 100 timed), the standings read after
    tally = ArenaTally()
    for record in records[:-100]:
        tally.add(record)
    _, adding = timed(lambda: [tally.add(record) for record in records[-100:]])
    _, reading = timed(lambda: tally.standings(entrants))
    added = adding / min(100, len(records)) * 1000
    return f"| {players} | {tables} | {took * 1000:.0f} ms | {added:.3f} ms | {reading * 1000:.1f} ms |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small sizes")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    q = args.quick
    print("## A duplicate Swiss of Kierki: 200 players, 5 rounds of 2 deals\n")
    print(
        "| round | tables | seating (ours) | cut in order (baseline) | repeats (ours) | repeats (baseline) | "
        "places spread a table | hands so far | standings |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in swiss(20 if q else 200, "kierki", 2 if q else 5, 2, args.seed):
        print(row, flush=True)
    hokm = cardhall.load_game("hokm").num_players
    print(f"\n## Arena seating: free pools from a 1,000-player arena of Hokm ({hokm} seats)\n")
    print(
        "| free | calls | seat_free p50 | p99 | cut in order p50 | gaps' cost / baseline's | "
        "repeats (ours) | repeats (baseline) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    sizes = (3, 12, 60) if q else (3, 6, 9, 12, 15, 21, 30, 45, 60)
    for row in arena_pools(1000, hokm, sizes, 5 if q else 200, args.seed):
        print(row, flush=True)
    print("\n## The heuristic (beyond 12 free) beside the exact search, on 12 people\n")
    print(
        "| people | seats | pools | exact p50 | heuristic p50 | cost / exact's: mean | worst | pools above |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for seats in (2, 3, 4, 6):
        print(heuristic_vs_exact(12, seats, 5 if q else 100, args.seed), flush=True)
    print("\n## Arena standings from the records\n")
    print("| players | finished tables | arena_standings | ArenaTally: a table added | its standings |")
    print("|---|---|---|---|---|")
    print(arena_event(1000, hokm, 100 if q else 6000, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
