"""The strength ``hard`` keeps under load: a tournament, duplicate deals with the seats rotated, of the bot
as it played in a run of ``load.py --workload c`` against ``normal`` (the rules bot), with the budget it
actually got there.

    .venv/bin/python benchmarks/load_strength.py --rules-share 0.62 --iterations 12 [--game hokm] [--games 60]
    .venv/bin/python benchmarks/load_strength.py --from load-c.json [--game kierki] [--json]
    .venv/bin/python benchmarks/load_strength.py --bids-only --iterations 200

Under load the server's bot tier answers some moves with the rules move (``no_time``, ``late``: too
little time left) and searches the others with a cut budget. The bot here, ``asplayed``, does the same
on every decision: with probability ``rules_share`` (the run's share of moves answered with the rules
move) the rules move, else the search with ``iterations`` determinizations (the run's median over the
moves it searched: determinizations, not milliseconds, so the tournament does not depend on how busy
this machine is while it runs). ``--from`` reads both from a ``load.py --json`` file, one tournament per
level. Short forms of the matches, as ``benchmarks/bots-search.md``: one hand of Hokm
(``hokm(max_hands=1)``), one negative deal of Kierki (``kierki(first_deal=3,last_deal=3)``). Margin =
the bot's mean score minus the rules bots' mean on the same deals, 95% interval.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from cardhall.bots import BOTS, SearchBot
from cardhall.core import Game, Observation
from cardhall.options import Option
from cardhall.sim.simulate import simulate

GAMES = {"hokm": "hokm(max_hands=1)", "kierki": "kierki(first_deal=3,last_deal=3)"}


class AsPlayedBot(SearchBot):
    """The search bot as the bot tier let it play under load: some moves the rules move, the others
    searched with a fixed number of determinizations."""

    name = "asplayed"
    option_spec = (
        *SearchBot.option_spec,
        Option("rules_permille", 0, "moves played as the rules move, per thousand", None, 0, 1000),
    )

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.rules_share = int(options.get("rules_permille", 0)) / 1000
        self.coin = random.Random(7)  # (its own: the match's randomness stays the match's)

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if self.anchor is not None and self.coin.random() < self.rules_share:
            return self.anchor.act(observation, legal_actions, rng)
        return super().act(observation, legal_actions, rng)


class BidsOnlyBot(AsPlayedBot):
    """The search on Hokm's bids and trump alone (the rules move on every card played): how much of the
    search's gain lies in those few decisions (``--bids-only``)."""

    name = "bidsonly"

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if self.anchor is not None and observation.get("phase") not in ("bidding", "trump"):
            return self.anchor.act(observation, legal_actions, rng)
        return super().act(observation, legal_actions, rng)


BOTS["asplayed"] = AsPlayedBot  # (this process and the workers it forks)
BOTS["bidsonly"] = BidsOnlyBot


def tournament(
    game: str, rules_share: float, iterations: int, games: int, seed: int, bot: str = "asplayed"
) -> dict[str, Any]:
    game_text = GAMES[game]
    seats = 3 if game == "hokm" else 4
    me = f"{bot}(iterations={max(1, iterations)},rules_permille={round(1000 * rules_share)})"
    report = simulate(game_text, [me] + ["rules"] * (seats - 1), games, seed=seed, jobs=1, rotate=True)
    mine = next(b for b in report.summary()["by_bot"] if b["bot"] == me)
    return {
        "game": game_text,
        "bot": me,
        "deals": games,
        "margin": mine["margin"],
        "mean": mine["mean_score"],
    }


def from_load(row: dict[str, Any]) -> tuple[float, int]:
    """(rules share, median determinizations) of one level of ``load.py --workload c --json``."""
    tier = row["bot_tier"]
    answered = tier["answered"]
    total = sum(answered.values())
    rules = answered["no_time"] + answered["late"] + answered["failed"]
    median = tier["searched_budget_ms_determinizations"]["p50"][1] or 0
    return (rules / total if total else 0.0), int(median)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="hokm")
    parser.add_argument("--games", type=int, default=60, help="deals (each played once per rotation)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rules-share", type=float, default=0.0)
    parser.add_argument("--iterations", type=int, default=0)
    parser.add_argument("--from", dest="source", default="", help="a load.py --workload c --json file")
    parser.add_argument("--bids-only", action="store_true", help="Hokm: search the bids and trump alone")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.bids_only and args.game != "hokm":
        parser.error("--bids-only is for Hokm (its phases bidding and trump)")
    bot = "bidsonly" if args.bids_only else "asplayed"
    levels: list[tuple[str, float, int]] = []
    if args.source:
        with open(args.source) as f:
            for row in json.load(f):
                share, iterations = from_load(row)
                levels.append((f"{row['players']} people", share, iterations))
    else:
        levels.append(("given", args.rules_share, args.iterations))
    out = []
    for label, share, iterations in levels:
        result = {"level": label, **tournament(args.game, share, iterations, args.games, args.seed, bot)}
        out.append(result)
        if not args.json:
            m = result["margin"]
            print(
                f"{label}: {result['bot']} on {result['game']}, {args.games} deals: margin over normal "
                f"{m['value']:+.1f} [{m['low']:+.1f}, {m['high']:+.1f}]",
                flush=True,
            )
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
