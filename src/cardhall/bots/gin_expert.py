"""The gin ``expert`` policy: the rules bot's play, with the discards and knocks read against a
distribution of the opponent's hand (:mod:`cardhall.bots.gin_infer`).

``expert_policy(game, observation, legal, rng)`` is the hook the ``expert`` bot calls for gin (the
rules module offers ``search_candidates`` and ``make_sampler`` the same way). It sees the seat's
observation only. What it changes from :class:`cardhall.bots.rules_gin.GinRulesBot`:

- **Discards**: the rules bot's costing (deadwood left, prospects, danger from the cards seen taken)
  plus ``FEED_KNOCK`` points times the probability, over the beliefs, that the card lets the opponent
  knock at once (taking it leaves him deadwood <= 10 after a discard), plus ``FEED_MELD`` times the
  probability that it melds with his hand. Feeding the knock is the costly mistake: a discard that
  ends the hand in his favour. Measured with the opponent's true hand instead of the beliefs, against
  OpenSpiel's ``SimpleGinRummyBot``, this term alone moved the margin from +2.2 to +5.1 points a hand
  (``benchmarks/bots-gin.md``), so the beliefs' job is to come near that.
- **Knocks**: gin always; otherwise the knock leaving the least deadwood whenever the rules bot's
  limit allows it *or* the beliefs put the chance of an undercut (his deadwood after laying off onto
  my melds at most mine) at most ``UNDERCUT_RISK``: a player who did not knock when he could is seldom
  below a knock's deadwood, and the rules bot's falling limit gave away knocks that were safe.
- Taking or drawing, lay-offs, the knocker's layout, the advisor's suggestion (what the policy would
  play with the team hand): as the rules bot, or through this policy for the advisor.
"""

from __future__ import annotations

import random

from cardhall.bots.gin_infer import Beliefs, beliefs
from cardhall.bots.rules_gin import (
    GinRulesBot,
    _mask,
    _opponent,
    best_knock,
    discard_costs,
    knock_limit,
)
from cardhall.core import Game, Observation
from cardhall.games.gin.melds import (
    CARD_VALUES,
    best_melds_mask,
    deadwood_mask,
    knock_discards,
    layoff_targets,
)
from cardhall.games.gin.rules import KNOCK_BASE, LAYOFF_BASE, NO_SUGGESTION, SUGGEST_BASE

FEED_KNOCK = 25.0
FEED_MELD = 2.0
UNDERCUT_RISK = 0.15


def expert_policy(game: Game, observation: Observation, legal: list[int], rng: random.Random) -> int:
    """The expert's action for a gin seat: ``legal`` are the seat's legal actions."""
    if len(legal) == 1:
        return legal[0]
    o = observation
    if legal[-1] == NO_SUGGESTION:  # the advisor suggests what the policy would play with the team hand
        own = [a - SUGGEST_BASE for a in legal[:-1]]
        return SUGGEST_BASE + _choose(game, o, own, o["roles"]["captain"], rng) if own else NO_SUGGESTION
    return _choose(game, o, legal, o["seat"], rng)


def _choose(game: Game, o: Observation, legal: list[int], me: int, rng: random.Random) -> int:
    if len(legal) == 1 or legal[0] >= LAYOFF_BASE:  # draw, lay-offs, layout: the rules bot's choice
        return GinRulesBot(game).act(o, legal, rng) if me == o["seat"] else _rules(game, o, legal, me)
    hand = _mask(o["hand"])
    b = beliefs(o, rng, me=me, allow_same=bool(game.options["allow_same_discard"]))
    if legal[-1] >= KNOCK_BASE:
        dw, knock = best_knock(hand, legal)
        if (
            dw <= knock_limit(o["stock_size"])
            or undercut_risk(hand & ~(1 << (knock - KNOCK_BASE)), b) <= UNDERCUT_RISK
        ):
            return knock
    opp = _opponent(o, me)
    costs = discard_costs(
        hand,
        legal,
        o["stock_size"],
        _mask(o["known_cards"][opp]),
        _mask(o["discard_pile"]),
        GinRulesBot._refused(o, opp),
    )
    return min((cost + feed_cost(a, b), a) for cost, a in costs)[1]


def _rules(game: Game, o: Observation, legal: list[int], me: int) -> int:
    """The rules bot's choice for ``me`` (the advisor's captain) from the advisor's observation."""
    suggestion = GinRulesBot(game).act(
        o, [SUGGEST_BASE + a for a in legal] + [NO_SUGGESTION], random.Random(0)
    )
    return suggestion - SUGGEST_BASE


def feed_cost(card: int, b: Beliefs) -> float:
    """What discarding ``card`` is expected to cost by feeding the opponent: ``FEED_KNOCK`` times the
    chance it lets him knock at once, ``FEED_MELD`` times the chance it melds with his hand."""
    bit = 1 << card
    value = CARD_VALUES[card]
    knock = meld = 0.0
    for hand, w in zip(b.hands, b.weights, strict=True):
        if w < 1e-4:
            continue
        eleven = hand | bit
        if knock_discards(eleven) & ~bit:
            knock += w
        elif deadwood_mask(eleven) < deadwood_mask(hand) + value:
            meld += w
    return FEED_KNOCK * knock + FEED_MELD * meld


def undercut_risk(kept: int, b: Beliefs) -> float:
    """The chance, over the beliefs, that a knock keeping ``kept`` is undercut: his deadwood after
    laying off onto its melds at most the knock's."""
    melds, _, dead = best_melds_mask(kept)
    targets = layoff_targets(melds)
    risk = 0.0
    for hand, w in zip(b.hands, b.weights, strict=True):
        if w and deadwood_mask(hand & ~targets) <= dead:
            risk += w
    return risk
