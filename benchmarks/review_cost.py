"""What a review costs: CPU time per decision and per match for each game, at the default budget.

    .venv/bin/python benchmarks/review_cost.py [--quick] [--seeds N] [--budget B] [--json]

Each match is played by rules bots in every seat (seeds 0..N-1, default 2) in the game's default form (a
whole match: Hokm to 500, Kierki's 12 deals, Cancellation Hearts to 150 and one-deck Hearts, gin to 100 in
both forms), except Svara, whose default match (until one player holds every chip) runs to a thousand
deals and more: it is measured on ``svara(max_deals=100)``. Seat 0's review is timed with
``time.process_time`` (CPU seconds of this process, one core: what other work on a shared machine
changes least), and the wall-clock time is shown beside it. ``--quick``: one seed, budget 10, short forms
(a smoke test; its numbers mean nothing).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import cardhall
from cardhall.review import DEFAULT_BUDGET, review
from cardhall.table import Table

GAMES = [
    "hokm",
    "kierki",
    "hearts",
    "hearts(decks=1,players=4)",
    "gin",
    "gin(players=2)",
    "svara(max_deals=100)",
]
QUICK = [
    "hokm(max_hands=1)",
    "kierki(last_deal=1)",
    "hearts(max_hands=1)",
    "hearts(decks=1,players=4,max_hands=1)",
    "gin(max_hands=1)",
    "gin(players=2,max_hands=1)",
    "svara(max_deals=2)",
]


def measure(text: str, seed: int, budget: int) -> dict[str, Any]:
    game = cardhall.load_game(text)
    record = Table(game, ["rules"] * game.num_players, seed, events=False).play().record()
    wall, cpu = time.perf_counter(), time.process_time()
    result = review(record, 0, budget=budget, seed=0)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    m = result["match"]
    return {
        "game": text,
        "seed": seed,
        "deals": len(result["deals"]),
        "decisions": m["decisions"],
        "forced": m["forced"],
        "searched": sum(d["searched"] for d in result["decisions"]),
        "cpu_s": cpu,
        "wall_s": wall,
        "ms_per_decision": 1000 * cpu / max(1, m["decisions"]),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="one seed, budget 10, short forms (a smoke test)")
    p.add_argument("--seeds", type=int, default=2, help="matches per game (seeds 0..N-1, default 2)")
    p.add_argument("--budget", type=int, default=None, help=f"determinizations a decision ({DEFAULT_BUDGET})")
    p.add_argument("--games", help="comma-separated game strings (default: every game's default form)")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = p.parse_args(argv)
    budget = args.budget or (10 if args.quick else DEFAULT_BUDGET)
    games = args.games.split(";") if args.games else (QUICK if args.quick else GAMES)
    seeds = 1 if args.quick else args.seeds
    rows = [measure(text, seed, budget) for text in games for seed in range(seeds)]
    if args.json:
        print(json.dumps({"budget": budget, "rows": rows}))
        return 0
    print(f"budget {budget} determinizations a decision; seat 0 of a rules-bot match\n")
    print("| match | seed | deals | decisions (searched) | forced | CPU s | ms a decision | wall s |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        print(
            f"| `{r['game']}` | {r['seed']} | {r['deals']} | {r['decisions']} ({r['searched']}) | "
            f"{r['forced']} | {r['cpu_s']:.1f} | {r['ms_per_decision']:.0f} | {r['wall_s']:.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
