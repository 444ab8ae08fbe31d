"""How well the gin expert reads the opponent's hand: ``bots/gin_infer.beliefs`` against the true hand.

    .venv/bin/python benchmarks/gin_infer_check.py [--opponent openspiel|rules] [--deals 40] [--seed 0]
        [--set NAME=VALUE ...] [--json]

Positions: two-player hands (``gin(players=2,max_hands=1)``, seed ``--seed + i``, each deal with the
observing bot as non-dealer and as dealer) in which the rules bot meets ``--opponent`` (OpenSpiel's
``SimpleGinRummyBot`` through ``gin_openspiel.py``'s mirror, or cardhall's rules bot); every plain
discard decision of the rules bot is a position (its observation, the opponent's true hand, its legal
discards). The same positions serve every variant of a run, so variants compare on equal terms.
``--set NAME=VALUE`` changes a constant of ``cardhall.bots.gin_infer`` before the beliefs are drawn
(``--set COULD_KNOCK=0.02``); repeat ``--set`` for several.

What is measured for each position, over the beliefs' hands (each card's *marginal*, the share of the
weighted hands that hold it, over the cards he may hold that nobody saw):

- ``card_loglik``: the log-likelihood of his true hand as independent cards (each unseen card scored
  ``log p`` if he holds it, ``log (1 - p)`` if not), in nats, and
  ``gain``: the same minus that of the uniform prior (``p`` = his hidden cards / the unseen cards):
  how much the play so far told the beliefs. Higher is better; 0 is no better than a uniform deal.
  The marginals are shrunk toward the prior by ``PSEUDO`` hands (``(n p + PSEUDO prior) / (n +
  PSEUDO)`` over ``n`` hands drawn): a card none of 96 draws holds is rare, not impossible, and
  scoring it ``log 0`` would measure the pool's size rather than the model.
- ``held_p`` and ``prior_p``: the mean marginal of the cards he does hold, and the prior's.
- ``feed``: for each legal discard, does it let him knock at once with his true hand (taking it leaves
  him deadwood at most 10 after a discard, ``gin_expert.feed_cost``'s event), against the beliefs'
  chance of it: ``feed_logloss`` (binary log loss; ``feed_base`` is the event's rate, and the log loss
  of that constant is ``feed_base_logloss``), ``feed_p_when`` (mean chance where it does).
- ``ms``: the beliefs' draw, milliseconds of CPU a position.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import time
from typing import Any, NamedTuple

import cardhall
import gin_openspiel  # run as a script: benchmarks/ is on the path
from cardhall.bots import gin_infer
from cardhall.bots.rules_gin import GinRulesBot
from cardhall.cards import cards_of
from cardhall.core import Observation
from cardhall.games.gin.melds import knock_discards
from cardhall.games.gin.rules import KNOCK_BASE, Gin, GinState

GAME = "gin(players=2,max_hands=1)"
CLIP = 0.005
PSEUDO = 2.0


class Position(NamedTuple):
    observation: Observation
    hand: int  # the opponent's true hand
    discards: list[int]  # the legal plain discards


def collect(opponent: str, deals: int, first_seed: int) -> list[Position]:
    """The rules bot's plain discard decisions in ``deals`` duplicate deals against ``opponent``."""
    game = cardhall.load_game(GAME)
    assert isinstance(game, Gin)
    bot = GinRulesBot(game)
    positions: list[Position] = []

    def watch(state: GinState, seat: int, legal: list[int]) -> None:
        if legal[0] < KNOCK_BASE:
            discards = [a for a in legal if a < KNOCK_BASE]
            positions.append(Position(state.observation(seat, ints=True), state.hands[1 - seat], discards))

    if opponent == "openspiel":
        import pyspiel

        gin_openspiel._UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        for i in range(deals):
            for first in (True, False):
                # (a mismatch ends the hand; the positions before it are sound)
                with contextlib.suppress(gin_openspiel.Mismatch):
                    gin_openspiel.play(game, pyspiel, first_seed + i, bot, first, watch)
    elif opponent == "rules":
        other = GinRulesBot(game)
        for i in range(deals):
            for first in (True, False):
                gin_openspiel.head_to_head(game, first_seed + i, bot, other, first, watch)
    else:
        raise ValueError(f"unknown opponent {opponent!r}: openspiel or rules")
    return positions


def evaluate(positions: list[Position], seed: int = 0) -> dict[str, float]:
    """The measures of the module's docstring, averaged over ``positions`` (``feed_*`` over discards)."""
    rng = random.Random(seed)
    loglik = prior_loglik = held = prior_held = 0.0
    cards_scored = 0
    feed_n = feed_hits = 0
    feed_loss = feed_p_when = 0.0
    started = time.process_time()
    for pos in positions:
        b = gin_infer.beliefs(pos.observation, rng)
        c = gin_infer.clues(pos.observation)
        unknown = ((1 << 52) - 1) & ~c.impossible & ~c.taken
        free = c.size - c.taken.bit_count()
        prior = free / unknown.bit_count()
        held_here = 0
        for card in cards_of(unknown):
            drawn = len(b.hands)
            p = (drawn * b.probability(1 << card) + PSEUDO * prior) / (drawn + PSEUDO)
            if pos.hand >> card & 1:
                loglik += math.log(p)
                prior_loglik += math.log(prior)
                held += p
                held_here += 1
            else:
                loglik += math.log(1 - p)
                prior_loglik += math.log(1 - prior)
        prior_held += prior * held_here
        cards_scored += held_here
        for card in pos.discards:
            bit = 1 << card
            truth = bool(knock_discards(pos.hand | bit) & ~bit)
            p = sum(w for h, w in zip(b.hands, b.weights, strict=True) if knock_discards(h | bit) & ~bit)
            p = min(max(p, CLIP), 1 - CLIP)
            feed_n += 1
            feed_hits += truth
            feed_loss -= math.log(p if truth else 1 - p)
            feed_p_when += p if truth else 0.0
    seconds = time.process_time() - started
    n = len(positions)
    base = feed_hits / feed_n if feed_n else 0.0
    base_loss = -(base * math.log(base) + (1 - base) * math.log(1 - base)) if 0 < base < 1 else 0.0
    return {
        "positions": n,
        "card_loglik": loglik / n,
        "gain": (loglik - prior_loglik) / n,
        "held_p": held / cards_scored,
        "prior_p": prior_held / cards_scored,
        "feed_discards": feed_n,
        "feed_base": base,
        "feed_base_logloss": base_loss,
        "feed_logloss": feed_loss / feed_n,
        "feed_p_when": feed_p_when / feed_hits if feed_hits else 0.0,
        "ms": 1000 * seconds / n,
    }


def parse_settings(settings: list[str]) -> dict[str, float]:
    out = {}
    for item in settings:
        name, _, value = item.partition("=")
        if not hasattr(gin_infer, name) or not value:
            raise SystemExit(f"--set {item!r}: expected NAME=VALUE with NAME a constant of gin_infer")
        out[name] = float(value) if "." in value or "e" in value else int(value)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="openspiel", choices=["openspiel", "rules"])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for name, value in parse_settings(args.set).items():
        setattr(gin_infer, name, value)
    positions = collect(args.opponent, args.deals, args.seed)
    report: dict[str, Any] = {
        "opponent": args.opponent,
        "deals": args.deals,
        "seed": args.seed,
        "settings": args.set,
        **evaluate(positions),
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in report.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
