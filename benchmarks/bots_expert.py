"""The ``expert`` level measured: against ``hard`` per game, the levels' table, and its speed.

    .venv/bin/python benchmarks/bots_expert.py vs-hard [--minutes 4] [--game hokm ...]
    .venv/bin/python benchmarks/bots_expert.py levels [--minutes 0.5] [--game hokm ...]
    .venv/bin/python benchmarks/bots_expert.py speed [--decisions 20] [--game hokm ...]
    .venv/bin/python benchmarks/bots_expert.py equal [--iterations 30] [--minutes 4] [--game hokm ...]
    .venv/bin/python benchmarks/bots_expert.py oracle [--iterations 30] [--decisions 200] [--bot B ...]

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

``oracle``: a quick, low-variance look at the choices alone. Rules bots play deals of the game; at
decisions along the way (every seat, one in ``--every``) each bot named (``--bot``; the first is the
baseline, by default ``search(iterations=N)``) chooses from the deciding seat's observation, and each
choice is valued in the *true* state: the action applied and the deal played out by the rules bots (which
play no dice in the trick games, so one play-out is exact), valued as the search values a rollout. The
report is each bot's mean gain over the baseline a decision, paired, with its 95% interval. Against
rules bots the opponent model is exact, so this is the inference's best case, not a match result.

``speed``: decisions a second per core at ``hard`` and ``expert`` (one process, back to back), with the
determinizations a searched decision got, from :func:`search_speed.measure` (seat 0 the level, the
others rules).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable

from cardhall.bots import BOT_LEVELS, ExpertBot, make_bot
from cardhall.bots.search import SearchBot, rollout_value
from cardhall.registry import load_game
from cardhall.sim.simulate import MatchResult, SimulationReport, play_chunk
from search_speed import measure, play_decisions  # run as a script: benchmarks/ is on the path

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


def oracle(game: str, bots: list[str], decisions: int, every: int, first_seed: int = 1000) -> list[str]:
    """Each bot's mean gain a decision over ``bots[0]`` valued in the true state (module docstring)."""
    gains: list[list[float]] = [[] for _ in bots]
    differ = [0] * len(bots)
    seed = first_seed
    players = load_game(GAMES[game](first_seed)).num_players
    while len(gains[0]) < decisions:
        g = load_game(GAMES[game](seed))
        rules = [make_bot("rules", g) for _ in range(players)]
        players_bots = [make_bot(b, g) for b in bots]
        judge = SearchBot(g, iterations=1)  # its rules play-out to the deal's end
        state = g.new_game(seed=seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_over and len(gains[0]) < decisions:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            obs = state.observation(seat, ints=True)
            if len(legal) > 1 and step % every == seed % every:
                values = []
                for bot in players_bots:
                    action = bot.act(obs, legal, random.Random(step * 7919 + seed))
                    after = state.clone()
                    stop = judge.horizon(after)
                    after.apply_unchecked(seat, action)
                    judge._rollout(after, stop, random.Random(0))
                    values.append((action, rollout_value(after, seat)))
                for i, (action, value) in enumerate(values):
                    gains[i].append(value - values[0][1])
                    differ[i] += action != values[0][0]
            state.apply(seat, rules[seat].act(obs, legal, rng))
            step += 1
        seed += 1
    rows = []
    for i, bot in enumerate(bots):
        xs = gains[i]
        n = len(xs)
        mean = sum(xs) / n
        se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
        rows.append(
            f"| {game} | {bot} | {bots[0]} | {n} | {differ[i]} | {mean:+.3f} [{mean - 1.96 * se:+.3f},"
            f" {mean + 1.96 * se:+.3f}] |"
        )
    return rows


def time_split(game_string: str, decisions: int) -> str:
    """Where ``expert``'s searched decisions spend their time (seat 0 the level, the others rules, as
    :func:`search_speed.measure` plays): the shares drawing states, weighing them and rolling out."""
    game = load_game(game_string)
    bot = make_bot("expert", game)
    assert isinstance(bot, ExpertBot)
    play_decisions(game, bot, decisions)
    t = bot.timing
    total = sum(t.values())
    if total == 0:  # a game expert does not weigh: the search's own loop
        return "not weighed"
    return " / ".join(f"{100 * t[k] / total:.0f}%" for k in ("sample", "weigh", "rollouts"))


def fmt(m: dict[str, float] | None) -> str:
    if m is None:
        return "-"
    return f"{m['value']:+.1f} [{m['low']:+.1f}, {m['high']:+.1f}]"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("vs-hard", "levels", "speed", "equal", "oracle"))
    ap.add_argument("--bot", action="append", help="oracle: the bots compared (the first the baseline)")
    ap.add_argument("--every", type=int, default=3, help="oracle: one decision in this many is judged")
    ap.add_argument("--iterations", type=int, default=30, help="equal: determinizations a decision")
    ap.add_argument("--minutes", type=float, default=4.0, help="wall clock per pairing and game")
    ap.add_argument(
        "--first-seed", type=int, default=1000, help="the first deal's seed (vs-hard, levels, equal)"
    )
    ap.add_argument("--decisions", type=int, default=20, help="speed: searched decisions per game")
    ap.add_argument("--game", action="append", choices=list(GAMES), help="default: every game")
    args = ap.parse_args()
    games = args.game or list(GAMES)
    if args.part == "speed":
        print(
            "| game | level | decisions/s searched | determinizations a decision | ms a decision"
            " | expert's time: drawing / weighing / rolling out |"
        )
        print("|---|---|---|---|---|---|")
        for game in games:
            for level in ("hard", "expert"):  # back to back: the same machine's load
                own = getattr(make_bot(level, load_game(GAMES[game](1000))), "expert_policy", None)
                if own is not None:  # the game's own expert play (gin's): no searched decisions to count
                    print(f"| {GAMES[game](1000)} | {level} | - | - | - | the game's own expert policy |")
                    continue
                sp = measure(GAMES[game](1000), 0, args.decisions, BOT_LEVELS[level])
                per = sp["seconds_per_decision"]
                dets = sp["determinizations_per_second"] * per
                split = time_split(GAMES[game](1000), args.decisions) if level == "expert" else "-"
                print(
                    f"| {GAMES[game](1000)} | {level} | {1 / per:.2f} | {dets:.0f} | {per * 1000:.0f}"
                    f" | {split} |",
                    flush=True,
                )
        return 0
    n = args.iterations
    if args.part == "oracle":
        bots = args.bot or [f"search(iterations={n})", f"expert(iterations={n})"]
        print("| game | bot | baseline | decisions | choices differing | gain a decision [95%] |")
        print("|---|---|---|---|---|---|")
        for game in games:
            for row in oracle(game, bots, args.decisions, args.every):
                print(row, flush=True)
        return 0
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
            row = duel(game, x, y, args.minutes, args.first_seed)
            print(
                f"| {game} | {x} | {y} | {row['deals']} ({row['plays']}) | {fmt(row['margin'])}"  # type: ignore[arg-type]
                f" | {float(row['seconds']) / 60:.1f} |",  # type: ignore[arg-type]
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
