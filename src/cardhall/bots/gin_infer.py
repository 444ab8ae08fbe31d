"""What the opponent holds in gin, read from what he did: a weighted set of his possible hands.

The gin ``expert`` policy (:mod:`cardhall.bots.gin_expert`) asks of the opponent's hand questions a
single guess cannot answer well (would this discard let him knock? would he undercut my knock?), so
the answer is a distribution: ``POOL_SIZE`` hands drawn from the posterior of his hand (prior: a
uniform deal of the cards he may hold, his cards seen taken from the pile plus unseen cards;
likelihood: everything he did under a model of a sensible player), each of weight ``1 / POOL_SIZE``
(:func:`beliefs`). The model is a sound player's play made soft (not any one bot's: the weights are
strong where the evidence is, and no clue is certain), each clue a factor:

- a card he **took** from the pile is part of his melds (a player takes a discard to meld it, or to
  knock, and he did not knock): ``TAKEN_OUTSIDE`` per card he took that lies outside the hand's best
  melds;
- a card he **refused** (threw, or passed on by drawing from the stock) would not have melded with
  what he kept: ``REFUSED_MELDS`` per such card that melds with the hand, ``RECENT_MELDS`` more per
  such card refused in his last ``RECENT_TURNS`` turns (an old refusal may meld with cards drawn since;
  a recent one seldom does);
- a sound player throws **high unmatched cards first**: for each of his discards, each unmatched card
  of the hand worth more than it (not one seen taken), beyond the stock cards he drew since (those may
  have come later), costs ``KEPT_HIGHER`` (:func:`kept_higher`);
- his **last discard** left little deadwood: ``exp(-DEADWOOD_REGRET * regret / TEMPERATURE)`` with the
  regret the deadwood kept above the least he could have kept (:func:`deadwood_regret`), and it was
  near what the rules bot would have thrown holding that hand (``exp(-RULES_REGRET * DISCARD_WEIGHT *
  regret / TEMPERATURE)``, :func:`cardhall.bots.rules_gin.discard_regret`: its cost above the cheapest
  discard, prospects included, or as good as impossible if the rules bot would have knocked there);
  the two halves weigh a plain player and a player who keeps his prospects alike;
- he **did not knock**: a hand that could have knocked (deadwood at most 10 after his last discard)
  keeps ``COULD_KNOCK`` of its weight (players do wait for gin, rarely);
- a sensible player improves his hand turn by turn: ``exp(-deadwood_weight * deadwood / TEMPERATURE)``,
  growing over his first ``DEADWOOD_TURNS`` turns (``rules_gin``'s calibration).

How the weights and the sampler were chosen, and how well the beliefs predict his true hand (per card,
and the event the policy pays for: a discard that lets him knock): ``benchmarks/gin_infer_check.py``,
``benchmarks/bots-expert.md``; the clues were compared on positions against two different players
(cardhall's rules bot and OpenSpiel's) so that no one player's habits are built in.

A hand that contradicts the observation (a card he cannot hold: in my hand, in the discard pile; a card
seen taken that it lacks; the wrong size) has likelihood 0 (:func:`likelihood`); the sampling never
draws one. All factors are soft (no clue is ever certain), so the weights are never all zero.
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

from cardhall.bots.rules_gin import (
    DEADWOOD_TURNS,
    DEADWOOD_WEIGHT,
    DISCARD_WEIGHT,
    LastDiscard,
    _mask,
    _opponent,
    discard_regret,
    last_discard,
    misfits,
    refused_by,
)
from cardhall.cards import cards_of
from cardhall.core import Observation
from cardhall.games.gin.melds import CARD_VALUES, KNOCK_LIMIT, deadwood_cards_mask, deadwood_mask
from cardhall.games.gin.rules import KNOCK_BASE, STOCK

POOL_SIZE = 96
CHAINS = 16
BURN_IN = 40
THIN = 4
TAKEN_OUTSIDE = 0.02
REFUSED_MELDS = 0.15
COULD_KNOCK = 0.03
TEMPERATURE = 2.0
RULES_REGRET = 0.5  # the rules bot's costing of his last discard (DISCARD_WEIGHT) counts this much
DEADWOOD_REGRET = 0.5  # per point his last discard left above the least deadwood he could leave
KEPT_HIGHER = 0.5  # per deadwood card kept above a discard of his, beyond the stock cards drawn since
RECENT_MELDS = 0.3  # per card refused in his last RECENT_TURNS turns that melds with the hand
RECENT_TURNS = 2
_FULL = (1 << 52) - 1


class Clues(NamedTuple):
    """What one observation tells of the opponent's hand (everything :func:`likelihood` needs)."""

    opponent: int
    size: int  # the cards he holds
    taken: int  # cards seen taken from the pile and still held (a mask)
    impossible: int  # cards he cannot hold: mine, the discard pile
    refused: int  # cards he threw or passed on this hand
    last: LastDiscard | None  # his view at his last plain discard
    waited: bool  # he has discarded without knocking and not drawn since
    deadwood_weight: float
    history: tuple[tuple[int, int], ...]  # his plain discards: (card, his stock draws since)
    recent: int  # the cards he refused in his last RECENT_TURNS turns


def clues(observation: Observation, me: int | None = None, allow_same: bool = False) -> Clues:
    """The clues of ``observation`` about the opponent of ``me`` (default: the observing seat; the
    advisor of three-hand gin passes his captain); ``allow_same``: the game's option of that name."""
    o = observation
    me = o["seat"] if me is None else me
    opp = _opponent(o, me)
    log = [(m["seat"], m["action"], -1 if m["card"] is None else m["card"]) for m in o["moves"]]
    pile = list(o["discard_pile"])
    pile_mask = _mask(pile)
    last = last_discard(
        log,
        pile,
        _mask(o["known_cards"][me]),
        me,
        opp,
        o["stock_size"],
        allow_same,
    )
    his = [a for s, a, _ in log if s == opp]
    waited = bool(his) and his[-1] < KNOCK_BASE  # his last move a plain discard
    turns = sum(1 for a in his if a < KNOCK_BASE)
    history = []
    draws = 0
    cut = 0  # the log before his last RECENT_TURNS turns
    for i in range(len(log) - 1, -1, -1):
        s, a, card = log[i]
        if s != opp:
            continue
        if a == STOCK:
            draws += 1
        elif a < KNOCK_BASE:
            history.append((card, draws))
            if len(history) == RECENT_TURNS:
                cut = i  # (the refusal of this turn's draw comes before the discard: a rough cut)
    refused = refused_by(log, pile, opp)
    return Clues(
        opponent=opp,
        size=o["hand_sizes"][opp],
        taken=_mask(o["known_cards"][opp]),
        impossible=_mask(o["hand"]) | pile_mask,
        refused=refused,
        last=last,
        waited=waited,
        deadwood_weight=DEADWOOD_WEIGHT * min(turns, DEADWOOD_TURNS) / DEADWOOD_TURNS,
        history=tuple(reversed(history)),
        recent=refused & ~refused_by(log[:cut], pile, opp) if cut else refused,
    )


def likelihood(c: Clues, hand: int) -> float:
    """How likely the opponent's play so far is if he holds ``hand`` (a mask), up to a constant: 0
    for a hand the observation rules out."""
    if hand.bit_count() != c.size or hand & c.impossible or hand & c.taken != c.taken:
        return 0.0
    dead = deadwood_mask(hand)
    score = c.deadwood_weight * dead
    if c.last is not None:
        if DISCARD_WEIGHT and RULES_REGRET:
            score += RULES_REGRET * DISCARD_WEIGHT * discard_regret(hand, c.last)
        if DEADWOOD_REGRET:
            score += DEADWOOD_REGRET * deadwood_regret(hand, dead, c.last.card, c.last.banned)
    p = math.exp(-score / TEMPERATURE)
    loose = deadwood_cards_mask(hand)
    if c.taken:
        p *= TAKEN_OUTSIDE ** (loose & c.taken).bit_count()
    if c.refused:
        p *= REFUSED_MELDS ** misfits(hand, c.refused)
    if c.recent and RECENT_MELDS != 1:
        p *= RECENT_MELDS ** misfits(hand, c.recent)
    if c.history and KEPT_HIGHER != 1:
        p *= KEPT_HIGHER ** kept_higher(loose & ~c.taken, c.history)
    if c.waited and dead <= KNOCK_LIMIT:
        p *= COULD_KNOCK
    return p


# HIGHER[v]: the cards worth more than v points.
HIGHER = tuple(sum(1 << x for x in range(52) if CARD_VALUES[x] > v) for v in range(11))


def kept_higher(loose: int, history: tuple[tuple[int, int], ...]) -> int:
    """How many unmatched cards of the hand (``loose``, none seen taken) he kept over a card he threw,
    beyond the cards he drew from the stock since (those may have come after): a sound player throws
    his high unmatched cards first."""
    n = 0
    for card, since in history:
        over = (loose & HIGHER[CARD_VALUES[card]]).bit_count() - since
        if over > 0:
            n += over
    return n


def deadwood_regret(hand: int, dead: int, card: int, banned: int) -> int:
    """How much more deadwood ``hand`` (deadwood ``dead``) has than the least he could have kept by
    throwing another card of ``hand`` plus ``card`` (not ``banned``, the card just taken)."""
    eleven = hand | 1 << card
    base = deadwood_mask(eleven)
    loose = deadwood_cards_mask(eleven)
    allowed = eleven & ~(1 << banned) if banned >= 0 else eleven
    best = dead
    m = loose & allowed
    while m:  # an unmatched card leaves exactly base - its value
        low = m & -m
        m ^= low
        best = min(best, base - CARD_VALUES[low.bit_length() - 1])
    m = allowed & ~loose
    while m:  # a matched card leaves at least base - its value
        low = m & -m
        m ^= low
        if base - CARD_VALUES[low.bit_length() - 1] < best:
            best = min(best, deadwood_mask(eleven ^ low))
    return dead - best


class Beliefs(NamedTuple):
    """Hands the opponent may hold (masks) and their probabilities (summing to one)."""

    hands: list[int]
    weights: list[float]

    def probability(self, holds: int) -> float:
        """The probability that he holds every card of the mask ``holds``."""
        return sum(w for h, w in zip(self.hands, self.weights, strict=True) if h & holds == holds)


def beliefs(
    observation: Observation,
    rng: random.Random,
    size: int = POOL_SIZE,
    me: int | None = None,
    allow_same: bool = False,
) -> Beliefs:
    """``size`` hands for the opponent drawn from the posterior (prior: a uniform deal of the cards the
    observation allows; :func:`likelihood`), each of weight ``1 / size``.

    Drawn by Metropolis sampling, ``CHAINS`` chains each started from a uniform deal: a step swaps one
    of his unknown cards for an unseen one and is kept with probability min(1, likelihood ratio);
    after ``BURN_IN`` steps every ``THIN``-th hand is kept. Many short chains rather than a few long
    ones: four chains of 24 hands each moved too few cards, so the pool held a handful of distinct
    hands and its card marginals were over-confident both ways (cards it gave 4 % were held 12 % of
    the time), no better than a uniform deal card by card. (Weighting uniform deals by their
    likelihood, the first way tried, left a handful of hands with nearly all the weight: its chance
    that a discard lets him knock predicted worse than the base rate, 0.32 against 0.24 log loss.)"""
    c = clues(observation, me, allow_same)
    unseen = cards_of(_FULL & ~c.impossible & ~c.taken)
    free = c.size - c.taken.bit_count()
    if free <= 0 or free >= len(unseen):
        hand = c.taken | sum(1 << card for card in unseen[: max(free, 0)])
        return Beliefs([hand], [1.0])
    hands: list[int] = []
    per_chain = -(-size // CHAINS)
    for _ in range(CHAINS):
        held = rng.sample(unseen, free)
        hand = c.taken | sum(1 << card for card in held)
        like = likelihood(c, hand)
        out = set(unseen) - set(held)
        outside = list(out)
        for step in range(BURN_IN + per_chain * THIN):
            i = rng.randrange(free)
            j = rng.randrange(len(outside))
            old, new = held[i], outside[j]
            swapped = hand ^ (1 << old) ^ (1 << new)
            new_like = likelihood(c, swapped)
            if new_like >= like or rng.random() * like < new_like:
                held[i], outside[j] = new, old
                hand, like = swapped, new_like
            if step >= BURN_IN and (step - BURN_IN) % THIN == THIN - 1:
                hands.append(hand)
    hands = hands[:size]
    return Beliefs(hands, [1 / len(hands)] * len(hands))
