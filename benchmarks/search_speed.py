"""How fast the search bot searches: determinizations, rollouts and rollout actions per second.

    .venv/bin/python benchmarks/search_speed.py [--ms 100 | --bot 'search(iterations=600)'] [--decisions 30]
        [--game GAME ...]

For each game's short form (or each ``--game``), seat 0 is ``search(ms=...)`` (or ``--bot``) and the other
seats are ``rules``; matches are played (seeds 0, 1, ...) until the search bot has searched
``--decisions`` decisions (a decision with one legal action, or one the game leaves to the rules
player, is not searched and not counted), and its ``stats`` counters are reported, with the seconds
per searched decision. The first line says whether the engine is compiled.
"""

from __future__ import annotations

import argparse
import random

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


def measure(game_string: str, ms: int = 100, decisions: int = 30, spec: str = "") -> dict[str, float]:
    game = cardhall.load_game(game_string)
    search = cardhall.make_bot(spec or f"search(ms={ms})", game)
    assert isinstance(search, SearchBot)
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
    st = search.stats
    seconds = st["seconds"]
    return {
        "decisions": st["decisions"],
        "seconds_per_decision": seconds / st["decisions"],
        "determinizations_per_second": st["determinizations"] / seconds,
        "rollouts_per_second": st["rollouts"] / seconds,
        "rollout_actions_per_second": st["actions"] / seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=int, default=100, help="search budget per decision (default 100)")
    parser.add_argument("--bot", default="", help="a search bot spec instead of search(ms=...)")
    parser.add_argument("--decisions", type=int, default=30, help="search decisions per game (default 30)")
    parser.add_argument("--game", action="append", help="a game string (default: every short form)")
    args = parser.parse_args(argv)
    spec = args.bot or f"search(ms={args.ms})"
    cardhall.load_game("hokm")  # loads the engine, so is_compiled can tell
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
