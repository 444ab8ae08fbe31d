"""How fast the search bot searches: determinizations, rollouts and rollout actions per second.

    .venv/bin/python benchmarks/search_speed.py [--ms 100 | --bot 'search(iterations=600)'] [--decisions 30]
        [--game GAME ...] [--json] [--before SRC --rounds N]

For each game's short form (or each ``--game``), seat 0 is ``search(ms=...)`` (or ``--bot``) and the other
seats are ``rules``; matches are played (seeds 0, 1, ...) until the search bot has searched
``--decisions`` decisions (a decision with one legal action, or one the game leaves to the rules
player, is not searched and not counted), and its ``stats`` counters are reported, with the seconds
per searched decision. The first line says whether the engine is compiled.

``--before SRC`` compares with another version of the engine in the same run: ``SRC`` is the ``src``
folder of that version (a checkout of an earlier commit, built or not); each game is measured
``--rounds`` times with each version in turn, in fresh processes, and the best round of each counts (a
shared machine only ever slows a run down). The ratio is determinizations/s after / before.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys

import cardhall
from cardhall.bots.search import SearchBot
from cardhall.engine_build import is_compiled

GAMES = (
    "hokm(max_hands=1)",
    "kierki(first_deal=3,last_deal=3)",
    "hearts(decks=1,players=4,max_hands=1)",
    "hearts(max_hands=1)",
    "gin(players=2,max_hands=1)",
    "svara(players=2,max_deals=1)",
)


def bot_observation(state: cardhall.State, seat: int) -> cardhall.Observation:
    """The observation bots read (cards and actions as ints); the text form for sources older than
    that form, so the script can measure an earlier version of the engine too."""
    try:
        return state.observation(seat, ints=True)
    except TypeError:
        return state.observation(seat)


def play_decisions(game: cardhall.Game, search: SearchBot, decisions: int) -> None:
    """Games from seed 0 on, ``search`` in seat 0 (its choices among two or more actions) and the rules
    bots elsewhere, until ``search`` has made ``decisions`` decisions."""
    rules = cardhall.make_bot("rules", game)
    rng = random.Random(0)
    seed = 0
    while search.stats["decisions"] < decisions:
        state = game.new_game(seed=seed)
        seed += 1
        while not state.is_over and search.stats["decisions"] < decisions:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            player = search if seat == 0 and len(legal) > 1 else rules
            state.apply(seat, player.act(bot_observation(state, seat), legal, rng))


def measure(game_string: str, ms: int = 100, decisions: int = 30, spec: str = "") -> dict[str, float]:
    game = cardhall.load_game(game_string)
    search = cardhall.make_bot(spec or f"search(ms={ms})", game)
    assert isinstance(search, SearchBot)
    play_decisions(game, search, decisions)
    st = search.stats
    seconds = st["seconds"]
    return {
        "decisions": st["decisions"],
        "seconds_per_decision": seconds / st["decisions"],
        "determinizations_per_second": st["determinizations"] / seconds,
        "rollouts_per_second": st["rollouts"] / seconds,
        "rollout_actions_per_second": st["actions"] / seconds,
    }


def measured_in(src: str, game: str, args: argparse.Namespace) -> dict[str, float]:
    """:func:`measure` in a fresh process running the engine found in ``src``."""
    command = [sys.executable, __file__, "--json", "--game", game, "--decisions", str(args.decisions)]
    command += ["--bot", args.bot] if args.bot else ["--ms", str(args.ms)]
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def compare(args: argparse.Namespace) -> int:
    """Best of ``args.rounds`` interleaved rounds with the sources in ``args.before`` and these."""
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    print(f"before: {args.before}; after: {here}; best of {args.rounds} interleaved rounds")
    print(f"{'game':42} {'before det/s':>13} {'after det/s':>12} {'ratio':>6}")
    for text in args.game or GAMES:
        best = {"before": 0.0, "after": 0.0}
        for _ in range(args.rounds):
            for side, src in (("before", args.before), ("after", here)):
                rate = measured_in(src, text, args)["determinizations_per_second"]
                best[side] = max(best[side], rate)
        ratio = best["after"] / best["before"]
        print(f"{text:42} {best['before']:13,.0f} {best['after']:12,.0f} {ratio:5.2f}x")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=int, default=100, help="search budget per decision (default 100)")
    parser.add_argument("--bot", default="", help="a search bot spec instead of search(ms=...)")
    parser.add_argument("--decisions", type=int, default=30, help="search decisions per game (default 30)")
    parser.add_argument("--game", action="append", help="a game string (default: every short form)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.add_argument("--before", help="the src folder of another version, to compare with")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds with --before")
    args = parser.parse_args(argv)
    if args.before:
        return compare(args)
    spec = args.bot or f"search(ms={args.ms})"
    cardhall.load_game("hokm")  # loads the engine, so is_compiled can tell
    if args.json:
        for text in args.game or GAMES:
            print(
                json.dumps(
                    {"game": text, "compiled": is_compiled(), **measure(text, args.ms, args.decisions, spec)}
                )
            )
        return 0
    print(f"engine: {'compiled' if is_compiled() else 'pure Python'}; {spec}")
    print(
        f"{'game':42} {'decisions':>9} {'s/decision':>10} {'determinizations/s':>19} {'rollouts/s':>11} "
        f"{'actions/s':>10}"
    )
    for text in args.game or GAMES:
        m = measure(text, args.ms, args.decisions, spec)
        print(
            f"{text:42} {m['decisions']:9.0f} {m['seconds_per_decision']:10.3f} "
            f"{m['determinizations_per_second']:19,.0f} {m['rollouts_per_second']:11,.0f} "
            f"{m['rollout_actions_per_second']:10,.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
