"""The ``expert`` level measured: against ``hard`` per game, the levels' table, and its speed.

    .venv/bin/python benchmarks/bots_expert.py vs-hard [--minutes 4] [--game hokm ...]
    .venv/bin/python benchmarks/bots_expert.py levels [--minutes 0.5] [--game hokm ...]
    .venv/bin/python benchmarks/bots_expert.py speed [--decisions 20] [--game hokm ...]
    .venv/bin/python benchmarks/bots_expert.py equal [--iterations 30] [--minutes 4] [--game hokm ...]

Duplicate deals: every seed is played with each bot in every seat. With an even number of seats the two
bots alternate round the table and the seed is played twice, the second time with the bots swapped
(Cancellation Hearts with 8 players: 4 against 4, two plays a deal instead of eight); with an odd number one
bot of the pair sits once and the other fills the rest, rotated (three plays a deal). The margin is the
first bot's mean score minus the other's on the same seed, averaged over the plays (``SimulationReport``
of :mod:`cardhall.sim.simulate`), with its 95% interval over the deals.

Each pairing plays deals (seeds 1000, 1001, ...) until ``--minutes`` of wall clock are spent (at least two
deals), in this one process: the machine is shared, so the count of deals is what the time allowed,
reported with each row. The levels are the server's (``BOT_LEVELS``: ``hard`` 300 ms, ``expert`` 500 ms
of wall clock a decision), so a busier machine gives the searches fewer determinizations, both alike.

The games, one deal each: Hokm, Kierki (the seed picks the deal: ``1 + seed % 12``, so the twelve kinds
come round in turn), Cancellation Hearts with 8 players, three-hand gin, Svara with 4 players.

``levels``: each level against each easier one (``expert`` against ``hard`` is the ``vs-hard`` part's).

``equal``: ``expert(iterations=N)`` against ``search(iterations=N)``, the same number of determinizations
a decision (whatever each costs): what the weighing itself is worth, apart from the budget.

``speed``: decisions a second per core at ``hard`` and ``expert`` (one process, back to back), with the
determinizations a searched decision got, from :func:`search_speed.measure` (seat 0 the level, the
others rules).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from cardhall.bots import BOT_LEVELS
from cardhall.registry import load_game
from cardhall.sim.simulate import MatchResult, SimulationReport, play_chunk
from search_speed import measure  # run as a script: benchmarks/ is on the path

GAMES: dict[str, Callable[[int], str]] = {
    "hokm": lambda seed: "hokm(max_hands=1)",
    "kierki": lambda seed: f"kierki(first_deal={1 + seed % 12},last_deal={1 + seed % 12})",
    "hearts": lambda seed: "hearts(players=8,max_hands=1)",
    "gin": lambda seed: "gin(max_hands=1)",
    "svara": lambda seed: "svara(players=4,max_deals=1)",
}
LEVELS = list(BOT_LEVELS)


def seatings(x: str, y: str, players: int) -> list[tuple[str, ...]]:
    """The plays of one deal that put ``x`` and ``y`` in every seat (see the module's docstring)."""
    if players % 2 == 0:
        a = tuple(x if s % 2 == 0 else y for s in range(players))
        b = tuple(y if s % 2 == 0 else x for s in range(players))
        return [a, b]
    base = [x] + [y] * (players - 1)
    return [tuple(base[(s - r) % players] for s in range(players)) for r in range(players)]


def duel(game: str, x: str, y: str, minutes: float, first_seed: int = 1000) -> dict[str, object]:
    """``x`` against ``y`` on duplicate deals of ``game`` for ``minutes``: the margin of ``x``."""
    spec = GAMES[game]
    players = load_game(spec(first_seed)).num_players
    report = SimulationReport(spec(first_seed), [x, y], rotate=True)
    start = time.perf_counter()
    seed = first_seed
    while seed - first_seed < 2 or time.perf_counter() - start < minutes * 60:
        results: list[MatchResult] = play_chunk(
            spec(seed), [(seed, s) for s in seatings(x, y, players)], False
        )
        report.results += results
        seed += 1
    margin = report.by_bot()[0]["margin"]
    return {
        "game": game,
        "x": x,
        "y": y,
        "deals": seed - first_seed,
        "plays": len(report.results),
        "margin": margin,
        "seconds": time.perf_counter() - start,
    }


def fmt(m: dict[str, float] | None) -> str:
    if m is None:
        return "-"
    return f"{m['value']:+.1f} [{m['low']:+.1f}, {m['high']:+.1f}]"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("vs-hard", "levels", "speed", "equal"))
    ap.add_argument("--iterations", type=int, default=30, help="equal: determinizations a decision")
    ap.add_argument("--minutes", type=float, default=4.0, help="wall clock per pairing and game")
    ap.add_argument("--decisions", type=int, default=20, help="speed: searched decisions per game")
    ap.add_argument("--game", action="append", choices=list(GAMES), help="default: every game")
    args = ap.parse_args()
    games = args.game or list(GAMES)
    if args.part == "speed":
        print("| game | level | decisions/s searched | determinizations a decision | ms a decision |")
        print("|---|---|---|---|---|")
        for game in games:
            for level in ("hard", "expert"):  # back to back: the same machine's load
                sp = measure(GAMES[game](1000), 0, args.decisions, BOT_LEVELS[level])
                per = sp["seconds_per_decision"]
                dets = sp["determinizations_per_second"] * per
                print(
                    f"| {GAMES[game](1000)} | {level} | {1 / per:.2f} | {dets:.0f} | {per * 1000:.0f} |",
                    flush=True,
                )
        return 0
    n = args.iterations
    pairs = (
        [("expert", "hard")]
        if args.part == "vs-hard"
        else [(f"expert(iterations={n})", f"search(iterations={n})")]
        if args.part == "equal"
        # (expert against hard is the vs-hard part's, with more time)
        else [(b, a) for i, a in enumerate(LEVELS) for b in LEVELS[i + 1 :] if (b, a) != ("expert", "hard")]
    )
    print("| game | bot | against | deals (plays) | margin a deal [95%] | minutes |")
    print("|---|---|---|---|---|---|")
    for game in games:
        for x, y in pairs:
            row = duel(game, x, y, args.minutes)
            print(
                f"| {game} | {x} | {y} | {row['deals']} ({row['plays']}) | {fmt(row['margin'])}"  # type: ignore[arg-type]
                f" | {float(row['seconds']) / 60:.1f} |",  # type: ignore[arg-type]
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
