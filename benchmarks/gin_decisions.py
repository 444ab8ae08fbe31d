"""Where the gin search bot gains on the rules bot: every override valued with the true cards.

    .venv/bin/python benchmarks/gin_decisions.py [--bot 'search(iterations=200)'] [--seeds 0 100]
        [--shuffles 64] [--search-all] [--json]

Two-player gin, one hand per seed, played twice (the searching bot in either seat) against the rules
bot. At every decision of the searching bot that differs from what the rules bot would play there, both
actions are valued on the **true** state (the opponent's real hand; ``--shuffles`` random orders of the
stock, the same for both actions; rules play for both seats afterwards): the override's gain is the
difference in (own score - opponent's score). By the performance-difference identity, the mean over
hands of the summed gains is the searching bot's expected margin over the rules bot, so this shows
which kind of decision the margin comes from, with far less noise than whole hands: a hand where the
search never overrides counts exactly zero.

``--search-all`` restores searching every decision (each take-or-draw choice, and every discard among
the rules bot's three best, with the best knock when one is legal), the search bot as it was before
``search_candidates`` (``bots/rules_gin.py``) narrowed it to knock decisions and lay-offs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import defaultdict
from typing import Any

import cardhall
from cardhall.bots.rules_gin import GinRulesBot, ranked_discards, search_candidates
from cardhall.bots.search import SearchBot, rollout_value
from cardhall.core import Game, Observation
from cardhall.games.gin.rules import ARRANGE_BASE, KNOCK_BASE, LAYOFF_BASE, STOCK, Gin, GinState

GAME = "gin(players=2,max_hands=1)"


def kind(legal: list[int], usual: int) -> str:
    """The kind of decision, and for a knock decision whether the rules bot knocks there."""
    if legal[0] >= ARRANGE_BASE:
        return "arrange"
    if legal[0] >= STOCK:
        return "take or draw"
    if legal[0] >= LAYOFF_BASE:
        return "lay-off"
    if legal[-1] < KNOCK_BASE:
        return "discard"
    return "knock legal, rules knocks" if usual >= KNOCK_BASE else "knock legal, rules discards"


def true_values(state: GinState, rules: GinRulesBot, shuffles: int) -> dict[int, float]:
    """Each legal action's mean value for the seat to act, from the true state, rules play after it."""
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    rng = random.Random(7)
    values = dict.fromkeys(legal, 0.0)
    for _ in range(shuffles):
        base = state.clone()
        rng.shuffle(base.stock)
        for action in legal:
            s = base.clone()
            s.apply_unchecked(seat, action)
            while not s.is_over:
                who = s.to_act[0]
                options = s.legal_actions(who)
                move = options[0] if len(options) == 1 else rules.act_state(s, who, options, rng)
                s.apply_unchecked(who, move)
            values[action] += rollout_value(s, seat)
    return {a: v / shuffles for a, v in values.items()}


def search_everything(bot: SearchBot) -> None:
    """Make the search bot ``bot`` compare what gin's search candidates offered before they were
    narrowed to knock decisions (this bot only)."""

    def candidates(game: Game, observation: Observation, legal: list[int]) -> list[int]:
        if legal[0] >= LAYOFF_BASE or len(legal) <= 2:  # lay-offs, take or draw: every action
            return legal
        if legal[-1] >= KNOCK_BASE:  # unchanged: the three best discards and the best knock
            return search_candidates(game, observation, legal)
        return sorted(ranked_discards(observation, legal)[:3])

    bot.candidates = candidates


def interval(values: list[float]) -> dict[str, float]:
    n = len(values)
    mean = sum(values) / n if n else 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return {"n": n, "mean": mean, "low": mean - half, "high": mean + half}


def run(bot_spec: str, seeds: range, shuffles: int, search_all: bool) -> dict[str, Any]:
    game = cardhall.load_game(GAME)
    assert isinstance(game, Gin)
    bot = cardhall.make_bot(bot_spec, game)
    if search_all:
        assert isinstance(bot, SearchBot)
        search_everything(bot)
    rules = GinRulesBot(game)
    decisions: dict[str, int] = defaultdict(int)
    gains: dict[str, list[float]] = defaultdict(list)
    per_hand: list[float] = []
    for seed in seeds:
        for searcher in (0, 1):
            state = game.new_game(seed=seed)
            assert isinstance(state, GinState)
            rng = random.Random(2 * seed + searcher)
            total = 0.0
            while not state.is_over:
                seat = state.to_act[0]
                legal = state.legal_actions(seat)
                if len(legal) > 1 and seat == searcher:
                    obs = state.observation(seat, ints=True)
                    action = bot.act(obs, legal, rng)
                    usual = rules.act(obs, legal, rng)
                    what = kind(legal, usual)
                    decisions[what] += 1
                    if action != usual:
                        values = true_values(state, rules, shuffles)
                        gains[what].append(values[action] - values[usual])
                        total += values[action] - values[usual]
                elif len(legal) > 1:
                    action = rules.act_state(state, seat, legal, rng)
                else:
                    action = legal[0]
                state.apply(seat, action)
            per_hand.append(total)
    return {
        "bot": bot_spec,
        "search_all": search_all,
        "hands": len(per_hand),
        "shuffles": shuffles,
        "by_kind": {
            k: {
                "decisions": decisions[k],
                "overrides": len(gains[k]),
                "gain_per_override": interval(gains[k]),
            }
            for k in sorted(decisions)
        },
        "summed_gain_per_hand": interval(per_hand),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search(iterations=200)", help="the searching bot")
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 100), metavar=("FIRST", "STOP"))
    parser.add_argument("--shuffles", type=int, default=64, help="stock orders per valuation (default 64)")
    parser.add_argument("--search-all", action="store_true", help="search every decision, as before")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = run(args.bot, range(*args.seeds), args.shuffles, args.search_all)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0

    def fmt(ci: dict[str, float]) -> str:
        return f"{ci['mean']:+.2f} [{ci['low']:+.2f}, {ci['high']:+.2f}]"

    mode = " (searching every decision)" if args.search_all else ""
    print(f"{report['bot']}{mode}: {report['hands']} hands")
    for k, row in report["by_kind"].items():
        g = row["gain_per_override"]
        counts = f"decisions {row['decisions']:5d}  overrides {row['overrides']:4d}"
        print(f"  {k:27s} {counts}  gain/override {fmt(g)}")
    print(f"  summed gain per hand {fmt(report['summed_gain_per_hand'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
