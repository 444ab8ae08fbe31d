"""The strength ``hard`` keeps under load: a tournament, duplicate deals with the seats rotated, of the bot
as it played in a run of ``load.py --workload c`` against ``normal`` (the rules bot), with the budget it
actually got there.

    .venv/bin/python benchmarks/load_strength.py --rules-share 0.62 --iterations 12 [--game hokm] [--games 60]
        [--heavy-rules-share 0.1 --heavy-iterations 80]
    .venv/bin/python benchmarks/load_strength.py --from load-c.json [--game kierki] [--json]
    .venv/bin/python benchmarks/load_strength.py --bids-only --iterations 200

Under load the server's bot tier answers some moves with the rules move (``no_time``, ``late``: too
little time left) and searches the others with a cut budget. The bot here, ``asplayed``, does the same
on every decision: with probability ``rules_share`` (the run's share of moves answered with the rules
move) the rules move, else the search with ``iterations`` determinizations (the run's median over the
moves it searched: determinizations, not milliseconds, so the tournament does not depend on how busy
this machine is while it runs). The tier weighs decisions (the game's bot rules module's
``DECISION_WEIGHTS``: in Hokm the bids and the trump choice are heavy) and cuts the light ones first, so
the heavy decisions (weight above neutral) have their own share and determinizations
(``--heavy-rules-share``, ``--heavy-iterations``; by default the same as the light ones). ``--from``
reads all four from a ``load.py --json`` file (its ``bot_tier``'s ``by_weight``), one tournament per
level. Short forms of the matches, as ``benchmarks/bots-search.md``: one hand of Hokm
(``hokm(max_hands=1)``), one negative deal of Kierki (``kierki(first_deal=3,last_deal=3)``). Margin =
the bot's mean score minus the rules bots' mean on the same deals, 95% interval.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from typing import Any, NamedTuple

from cardhall.bots import BOTS, SearchBot
from cardhall.bots.rules import NEUTRAL_WEIGHT, decision_weight
from cardhall.core import Game, Observation
from cardhall.options import Option
from cardhall.sim.simulate import simulate

GAMES = {"hokm": "hokm(max_hands=1)", "kierki": "kierki(first_deal=3,last_deal=3)"}


_BOTS_MADE = itertools.count()  # (in this process, in the order the matches make them: reproducible)


class AsPlayedBot(SearchBot):
    """The search bot as the bot tier let it play under load: some moves the rules move, the others
    searched with a fixed number of determinizations, each for the light (neutral) decisions and the
    heavy ones (the game's ``DECISION_WEIGHTS`` above neutral) apart."""

    name = "asplayed"
    option_spec = (
        *SearchBot.option_spec,
        Option("rules_permille", 0, "light moves played as the rules move, per thousand", None, 0, 1000),
        Option("heavy_permille", -1, "heavy moves played as the rules move (-1: as light)", None, -1, 1000),
        Option("heavy_iterations", 0, "heavy moves' determinizations (0: as light)", None, 0),
    )

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.rules_share = int(options.get("rules_permille", 0)) / 1000
        heavy = int(options.get("heavy_permille", -1))
        self.heavy_share = self.rules_share if heavy < 0 else heavy / 1000
        self.heavy_iterations = int(options.get("heavy_iterations", 0)) or self.iterations
        self.light_iterations = self.iterations
        # Its own coin (the match's randomness stays the match's), a new seed for each bot made: a table
        # makes its bots anew for every match, and one seed for all would play the rules move at the same
        # decisions of every deal (the first, when the share is above the seed's first draw, 0.32).
        self.coin = random.Random(7_000_003 + next(_BOTS_MADE))

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        heavy = decision_weight(self.game, observation) > NEUTRAL_WEIGHT
        share = self.heavy_share if heavy else self.rules_share
        if self.anchor is not None and self.coin.random() < share:
            return self.anchor.act(observation, legal_actions, rng)
        self.iterations = self.heavy_iterations if heavy else self.light_iterations
        try:
            return super().act(observation, legal_actions, rng)
        finally:
            self.iterations = self.light_iterations


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


class Level(NamedTuple):
    """How the tier let ``hard`` play: (rules share, determinizations) of the light decisions and of the
    heavy ones."""

    rules_share: float
    iterations: int
    heavy_rules_share: float
    heavy_iterations: int


def tournament(game: str, level: Level, games: int, seed: int, bot: str = "asplayed") -> dict[str, Any]:
    game_text = GAMES[game]
    seats = 3 if game == "hokm" else 4
    me = (
        f"{bot}(iterations={max(1, level.iterations)},rules_permille={round(1000 * level.rules_share)},"
        f"heavy_permille={round(1000 * level.heavy_rules_share)},"
        f"heavy_iterations={max(1, level.heavy_iterations)})"
    )
    report = simulate(game_text, [me] + ["rules"] * (seats - 1), games, seed=seed, jobs=1, rotate=True)
    mine = next(b for b in report.summary()["by_bot"] if b["bot"] == me)
    return {
        "game": game_text,
        "bot": me,
        "deals": games,
        "margin": mine["margin"],
        "mean": mine["mean_score"],
    }


def _played(tier: dict[str, Any]) -> tuple[float, int]:
    """(rules share, median determinizations of the searched) of a tier's statistics."""
    answered = tier["answered"]
    total = sum(answered.values())
    rules = answered["no_time"] + answered["late"] + answered["failed"]
    median = tier["searched_budget_ms_determinizations"]["p50"][1] or 0
    return (rules / total if total else 0.0), int(median)


def from_load(row: dict[str, Any]) -> Level:
    """How ``hard`` played at one level of ``load.py --workload c --json``: the light decisions (neutral
    weight) and the heavy ones (above it) apart, from its tier's ``by_weight`` (one statistic for all
    when the run has none: a tier that did not weigh decisions)."""
    tier = row["bot_tier"]
    tier = tier.get("window", tier)  # (the measured window alone, where the run has it)
    weights = {int(w): s for w, s in tier.get("by_weight", {}).items()}
    light = [s for w, s in weights.items() if w <= NEUTRAL_WEIGHT]
    heavy = [s for w, s in weights.items() if w > NEUTRAL_WEIGHT]
    share, iterations = _played(light[0] if len(light) == 1 else tier)
    heavy_share, heavy_iterations = _played(heavy[0]) if len(heavy) == 1 else (share, iterations)
    return Level(share, iterations, heavy_share, heavy_iterations)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="hokm")
    parser.add_argument("--games", type=int, default=60, help="deals (each played once per rotation)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rules-share", type=float, default=0.0)
    parser.add_argument("--iterations", type=int, default=0)
    parser.add_argument("--heavy-rules-share", type=float, default=-1.0, help="default: --rules-share")
    parser.add_argument("--heavy-iterations", type=int, default=0, help="default: --iterations")
    parser.add_argument("--from", dest="source", default="", help="a load.py --workload c --json file")
    parser.add_argument("--bids-only", action="store_true", help="Hokm: search the bids and trump alone")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.bids_only and args.game != "hokm":
        parser.error("--bids-only is for Hokm (its phases bidding and trump)")
    bot = "bidsonly" if args.bids_only else "asplayed"
    levels: list[tuple[str, Level]] = []
    if args.source:
        with open(args.source) as f:
            for row in json.load(f):
                levels.append((f"{row['players']} people", from_load(row)))
    else:
        heavy_share = args.rules_share if args.heavy_rules_share < 0 else args.heavy_rules_share
        heavy = args.heavy_iterations or args.iterations
        levels.append(("given", Level(args.rules_share, args.iterations, heavy_share, heavy)))
    out = []
    for label, level in levels:
        result = {"level": label, **tournament(args.game, level, args.games, args.seed, bot)}
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
