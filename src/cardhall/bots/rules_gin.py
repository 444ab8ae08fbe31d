"""The ``rules`` bot for gin (two-player gin and three-hand gin in the box), from the observation alone.

- **Taking the discard** (the up-card or the top of the pile): only when the card goes into a meld of the
  best arrangement after the best discard (and lowers the deadwood), or when it lets the bot knock at once;
  otherwise it passes / draws from the stock, giving the opponent no information.
- **Discarding**: every legal discard is costed as the deadwood left, plus the prospects thrown away (live
  cards that would make a set with a pair it holds, or a run with a neighbour it holds in the suit; worth
  less as the stock runs down), plus its danger: a card that would meld with cards the opponent was seen
  taking from the pile is never given away while anything else is left (never feed a meld knowingly); a
  card of the same rank or a near neighbour of those cards is risky; a card of a rank the opponent threw or
  passed on is safer. Lowest cost wins; ties go to the higher card.
- **Knocking**: gin whenever possible; otherwise it knocks with the discard leaving the least deadwood when
  that deadwood is at most a limit that falls as the stock shrinks (10 early, then 8, then 6, 4 late):
  early knocks win before the opponent has melded, late knocks with much deadwood get undercut. When it
  does not knock it keeps discarding toward gin.
- **Arranging the melds** (when a knock can be laid out several ways): the layout with the least
  expected count after lay-offs: its deadwood plus ``LAYOFF_CHANCE`` (1/3, about the chance that the
  opponent holds a given unseen card) times the value of the cards that would extend one of its melds
  and that he may hold (not in the bot's hand, not in the discard pile); ties: fewer such cards, then
  the first in the engine's order. So with equal deadwood it lays out what leaves the fewest lay-offs
  (three sets rather than three runs in issue 17's example). Choosing the fewest lay-offs first, whatever
  the deadwood, was measured worse: over the 345 choices of 6,000 rules-against-rules hands, the
  knocker's mean margin was 11.02 points with it, 11.98 taking the engine's first layout, 12.10 taking
  the least deadwood then the fewest lay-offs, 12.33 with this rule (12.68 for a player who knew the
  opponent's hand).
- **Lay-offs**: it lays off the card that lowers its deadwood most, one at a time, and says ``done`` when no
  lay-off lowers it (a card that is part of its own meld is kept).
- **Three players**: as box or captain it plays its hand; as advisor it suggests exactly what it would play
  with the team hand (the captain's choice above).
- **Rollouts**: ``act_state`` makes the same choice straight from a state (what the seat's observation
  shows, without building it), for the search bot's rollouts.

It reads the bots' form of the observation (``ints=True``: cards and actions as ints).

What the search bot knows of gin (see :mod:`cardhall.bots.rules`) is here too:

- ``search_candidates``: when a knock is legal, the rules bot's ``SEARCH_DISCARDS`` best plain discards
  (by its own costing of deadwood, prospects and danger) and the knock leaving the least deadwood (gin if
  possible), so the budget goes to the choices that matter (eleven near-equal discards would each get
  too few rollouts); a discard when no knock is legal, taking or drawing, and an advisor's suggestion
  (it changes nothing in a rollout), the knocker's choice of layout: the rules bot's choice alone, not
  searched; lay-offs: every legal action. Measured in ``benchmarks/bots-gin.md``: overriding plain
  discards and take-or-draw choices gained nothing or lost; knock decisions gained.
- ``make_sampler``: the opponent model. A sensible player improves his hand turn by turn, and a uniform
  deal of his hidden cards gives him far more deadwood than he holds, and cards that fit nothing he did.
  So, once per observation (one search decision; the sampler keeps the pool until another observation
  comes), ``POOL_SIZE`` hands are drawn and weighted by how well they fit what he did
  (:func:`opponent_pool`: cards he threw or passed on that would meld with them, cards he took that lie
  outside his melds, how far his last discard is from what this bot would have thrown, the deadwood);
  each sampled state (``Gin.sample_state``) takes one hand by weight.
- ``expert_policy(game, observation, legal, rng)``: what the ``expert`` bot plays in gin, the policy of
  :mod:`cardhall.bots.gin_expert` (imported when first called: it builds on this module).
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable
from typing import NamedTuple

from cardhall.bots.base import BaseBot
from cardhall.cards import cards_of
from cardhall.core import Game, Observation
from cardhall.games.gin.melds import (
    CARD_VALUES,
    RANK_MASKS,
    deadwood_cards_mask,
    deadwood_mask,
    knock_discards,
    layoff_targets,
)
from cardhall.games.gin.rules import (
    ARRANGE_BASE,
    DONE,
    KNOCK_BASE,
    LAYOFF_BASE,
    NO_SUGGESTION,
    PASS,
    STOCK,
    SUGGEST_BASE,
    TAKE,
    Gin,
    GinState,
)

FULL_STOCK = 31

# Gin order within a suit (A low): GIN_NEXT[c] / GIN_PREV[c] is the card one rank above / below in its
# suit, or -1 at the ends (K has no higher, A no lower).
GIN_NEXT = tuple(-1 if c % 13 == 11 else (c - 12 if c % 13 == 12 else c + 1) for c in range(52))
GIN_PREV = tuple(-1 if c % 13 == 12 else (c + 12 if c % 13 == 0 else c - 1) for c in range(52))


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def knock_limit(stock_size: int) -> int:
    """The most deadwood the bot knocks with, by the cards left in the stock."""
    if stock_size >= 22:
        return 10
    if stock_size >= 15:
        return 8
    if stock_size >= 8:
        return 6
    return 4


def _bit(c: int) -> int:
    return 0 if c < 0 else 1 << c


def _tables() -> tuple[tuple[int, ...], ...]:
    up = [_bit(GIN_NEXT[c]) for c in range(52)]
    down = [_bit(GIN_PREV[c]) for c in range(52)]
    up2 = [_bit(GIN_NEXT[GIN_NEXT[c]]) if GIN_NEXT[c] >= 0 else 0 for c in range(52)]
    down2 = [_bit(GIN_PREV[GIN_PREV[c]]) if GIN_PREV[c] >= 0 else 0 for c in range(52)]
    others = tuple(RANK_MASKS[c % 13] & ~(1 << c) for c in range(52))
    return tuple(up), tuple(down), tuple(up2), tuple(down2), others


UP, DOWN, UP2, DOWN2, OTHERS = _tables()
# The pairs of cards that make a run with a card: the two above, the two below, one on each side.
RUN_PAIRS = tuple(
    tuple(p for p in (UP[c] | UP2[c], UP[c] | DOWN[c], DOWN[c] | DOWN2[c]) if p.bit_count() == 2)
    for c in range(52)
)


def meld_outs(card: int, hand: int, live: int) -> int:
    """Live cards that would make a meld with ``card`` and the other cards of ``hand``."""
    outs = (live & OTHERS[card]).bit_count() if hand & OTHERS[card] else 0
    up, down = UP[card], DOWN[card]
    if hand & up:
        outs += bool(live & down) + bool(live & UP2[card])
    elif hand & UP2[card] and live & up:
        outs += 1
    if hand & down:
        outs += bool(live & DOWN2[card]) + (0 if hand & up else bool(live & up))
    elif hand & DOWN2[card] and live & down:
        outs += 1
    return outs


def danger(card: int, opp_known: int, opp_refused: int) -> float:
    """How likely ``card`` helps the opponent: it melds with cards seen taken (20), shares a rank or is a
    near neighbour of them (3 / 2), is a rank or neighbour the opponent threw or passed on (-2 / -1)."""
    same = OTHERS[card]
    near = UP[card] | DOWN[card]
    if opp_known:
        if (opp_known & same).bit_count() >= 2:
            return 20.0
        for pair in RUN_PAIRS[card]:
            if opp_known & pair == pair:
                return 20.0
    d = 0.0
    if opp_known & same:
        d += 3
    if opp_known & (near | UP2[card] | DOWN2[card]):
        d += 2
    if opp_refused & RANK_MASKS[card % 13]:
        d -= 2
    if opp_refused & near:
        d -= 1
    return d


def refused_by(log: list[tuple[int, int, int]], pile: list[int], seat: int) -> int:
    """The cards ``seat`` discarded or passed on this hand, from a gin state's move log (one pass: a
    pass or a stock draw refuses the card the previous move put on the pile, or the up-card)."""
    up = pile[0] if pile else -1  # the up-card: at the bottom of the pile unless taken before any discard
    for _, a, c in log:
        if a < LAYOFF_BASE:
            break
        if a == TAKE:
            up = c
            break
    refused = 0
    prev = up
    for s, a, c in log:
        if a < LAYOFF_BASE:
            if s == seat:
                refused |= 1 << c
            prev = c
        elif a == TAKE:
            prev = -1
        elif a in (PASS, STOCK):
            if s == seat and prev >= 0:
                refused |= 1 << prev
        else:
            prev = -1
    return refused


def _opponent(o: Observation, me: int) -> int:
    roles = o["roles"]
    opp: int = roles["box"] if "box" in roles else roles["dealer"]
    if opp == me:
        opp = roles["captain"] if "captain" in roles else roles["non_dealer"]
    return opp


def best_knock(hand: int, legal: list[int]) -> tuple[int, int]:
    """(deadwood left, action) of the knock in ``legal`` leaving the least deadwood (gin if possible;
    ties: the higher card thrown); ``legal`` must hold a knock."""
    dw, _, action = min(
        (deadwood_mask(hand & ~(1 << (a - KNOCK_BASE))), -CARD_VALUES[a - KNOCK_BASE], a)
        for a in legal
        if a >= KNOCK_BASE
    )
    return dw, action


def _knock_choice(hand: int, legal: list[int], stock: int) -> int:
    """Gin whenever possible, else the knock leaving the least deadwood if it is within the limit; -1:
    no knock."""
    if legal[-1] < KNOCK_BASE:
        return -1
    dw, action = best_knock(hand, legal)
    return action if dw <= knock_limit(stock) else -1


def discard_costs(
    hand: int, legal: list[int], stock: int, opp_known: int, pile: int, refused: int
) -> list[tuple[float, int]]:
    """(cost, action) of every plain discard in ``legal``: deadwood left, prospects thrown away, danger;
    the lowest cost is the rules bot's discard (when it does not knock)."""
    base = deadwood_mask(hand)
    dead = deadwood_cards_mask(hand)
    live = ((1 << 52) - 1) & ~hand & ~pile & ~opp_known
    weight = 0.5 + 1.5 * stock / FULL_STOCK
    out = []
    for a in legal:
        if a >= KNOCK_BASE:
            break
        left = base - CARD_VALUES[a] if dead >> a & 1 else deadwood_mask(hand & ~(1 << a))
        cost = (
            left + weight * meld_outs(a, hand, live) + danger(a, opp_known, refused) - 0.01 * CARD_VALUES[a]
        )
        out.append((cost, a))
    return out


LAYOFF_CHANCE = 1 / 3


def layoff_cards(melds: list[int], hand: int, pile: int) -> int:
    """The cards the opponent could lay off at once on ``melds`` (a mask): those that would extend one
    of them, outside the knocker's ``hand`` and the discard ``pile``."""
    return layoff_targets(melds) & ~hand & ~pile


def arrange_choice(layouts: list[tuple[list[int], int]], hand: int, pile: int) -> int:
    """The index of the layout (melds, deadwood value) the rules bot lays out: the least deadwood plus
    ``LAYOFF_CHANCE`` times the value of its :func:`layoff_cards`; ties: fewer of them, then the first."""
    best_key: tuple[float, int, int] | None = None
    best = 0
    for i, (melds, value) in enumerate(layouts):
        cards = layoff_cards(melds, hand, pile)
        worth = sum(CARD_VALUES[c] for c in cards_of(cards))
        key = (value + LAYOFF_CHANCE * worth, cards.bit_count(), i)
        if best_key is None or key < best_key:
            best_key, best = key, i
    return best


def ranked_discards(o: Observation, legal: list[int]) -> list[int]:
    """The plain discards of ``legal`` (a player's own discard decision) from the rules bot's best to
    its worst by :func:`discard_costs` (the search bot's gin candidates)."""
    me = o["seat"]
    opp = _opponent(o, me)
    costs = discard_costs(
        _mask(o["hand"]),
        legal,
        o["stock_size"],
        _mask(o["known_cards"][opp]),
        _mask(o["discard_pile"]),
        GinRulesBot._refused(o, opp),
    )
    return [a for _, a in sorted(costs)]


class GinRulesBot(BaseBot):
    name = "rules"

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        o = observation
        if legal_actions[-1] == NO_SUGGESTION:  # the advisor suggests what it would play itself
            own = [a - SUGGEST_BASE for a in legal_actions[:-1]]
            return SUGGEST_BASE + self._choose(o, own, o["roles"]["captain"]) if own else NO_SUGGESTION
        return self._choose(o, legal_actions, o["seat"])

    # --- the captain's / player's choice -------------------------------------------------------

    def _choose(self, o: Observation, legal: list[int], me: int) -> int:
        if len(legal) == 1:
            return legal[0]
        hand = _mask(o["hand"])
        first = legal[0]
        if first >= LAYOFF_BASE and first < STOCK:
            return self._lay_off(hand, legal)
        if first >= ARRANGE_BASE:
            layouts = [([_mask(m) for m in a["melds"]], a["deadwood"]) for a in o["arrangements"]]
            return ARRANGE_BASE + arrange_choice(layouts, hand, _mask(o["discard_pile"]))
        if first >= STOCK:  # TAKE with STOCK or PASS
            return self._draw(hand, o["discard_pile"][-1], o["stock_size"], legal)
        opp = _opponent(o, me)
        return self._discard(
            hand,
            legal,
            o["stock_size"],
            _mask(o["known_cards"][opp]),
            _mask(o["discard_pile"]),
            lambda: self._refused(o, opp),
        )

    def act_state(self, state: GinState, seat: int, legal: list[int], rng: random.Random) -> int:
        """The same choice as ``act(state.observation(seat), legal, rng)``, read straight from the
        state for fast rollouts; it reads only what the seat's observation shows (its own hand, the
        pile, the stock size, the cards seen taken and the move log), never a hidden card."""
        if len(legal) == 1:
            return legal[0]
        if seat != state.current:  # the advisor: through the observation
            return self.act(state.observation(seat, ints=True), legal, rng)
        hand = state.hands[seat]
        first = legal[0]
        if first >= LAYOFF_BASE and first < STOCK:
            return self._lay_off(hand, legal)
        pile = state.pile
        pile_mask = 0
        if first >= ARRANGE_BASE:
            for c in pile:
                pile_mask |= 1 << c
            layouts = [(melds, value) for melds, _, value in state.arrangements]
            return ARRANGE_BASE + arrange_choice(layouts, hand, pile_mask)
        if first >= STOCK:
            return self._draw(hand, pile[-1], len(state.stock), legal)
        opp = state.dealer if seat == state.nondealer else state.nondealer
        for c in pile:
            pile_mask |= 1 << c
        return self._discard(
            hand,
            legal,
            len(state.stock),
            state.known[opp],
            pile_mask,
            lambda: refused_by(state.log, pile, opp),
        )

    def _lay_off(self, hand: int, legal: list[int]) -> int:
        base = deadwood_mask(hand)
        best, gain = DONE, 0
        for a in legal:
            if a == DONE:
                continue
            g = base - deadwood_mask(hand & ~(1 << (a - LAYOFF_BASE)))
            if g > gain:
                best, gain = a, g
        return best

    def _draw(self, hand: int, top: int, stock_size: int, legal: list[int]) -> int:
        decline = STOCK if STOCK in legal else PASS
        bit = 1 << top
        eleven = hand | bit
        allow_same = bool(self.game.options["allow_same_discard"])
        now = deadwood_mask(hand)
        base = deadwood_mask(eleven)
        if base - 10 >= now:  # no discard can leave less deadwood than now
            return decline
        dead = deadwood_cards_mask(eleven)
        best = now + 100
        best_rest = 0
        m = eleven if allow_same else hand
        while m:
            low = m & -m
            m ^= low
            rest = eleven ^ low
            d = base - CARD_VALUES[low.bit_length() - 1] if dead & low else deadwood_mask(rest)
            if d < best:
                best, best_rest = d, rest
        if best >= now:
            return decline
        melded = best_rest & bit != 0 and best < deadwood_mask(best_rest ^ bit) + CARD_VALUES[top]
        if melded or best <= knock_limit(stock_size):
            return TAKE
        return decline

    def _discard(
        self,
        hand: int,
        legal: list[int],
        stock: int,
        opp_known: int,
        pile: int,
        refused_of: Callable[[], int],
    ) -> int:
        knock = _knock_choice(hand, legal, stock)
        if knock >= 0:
            return knock
        return min(discard_costs(hand, legal, stock, opp_known, pile, refused_of()))[1]

    @staticmethod
    def _refused(o: Observation, opp: int) -> int:
        """Cards the opponent discarded or passed on this hand."""
        log = [(m["seat"], m["action"], -1 if m["card"] is None else m["card"]) for m in o["moves"]]
        return refused_by(log, o["discard_pile"], opp)


def review_thresholds(game: Game) -> tuple[float, float, float]:
    """The review's inaccuracy, mistake and blunder thresholds (:mod:`cardhall.review`), in points of
    the deal value."""
    return (3.0, 8.0, 20.0)


# What a search pays at each kind of decision (the game's phases; see cardhall.bots.rules): neutral,
# since no measurement shows one kind gaining more from a search than another.
RULES_BOT = GinRulesBot


# --- what the search bot knows of gin ------------------------------------------------------------

SEARCH_DISCARDS = 3


def search_candidates(game: Game, observation: Observation, legal: list[int]) -> list[int]:
    """The actions the search bot compares (see the module's notes): lay-offs: every legal one; a
    discard with a knock legal: the rules bot's ``SEARCH_DISCARDS`` best plain discards and the best
    knock; anything else (the knocker's layout too): the rules bot's choice alone."""
    if LAYOFF_BASE <= legal[0] < STOCK:  # lay-offs
        return legal
    last = legal[-1]
    if last < KNOCK_BASE or last >= STOCK:  # a plain discard, take or draw, a suggestion
        return [GinRulesBot(game).act(observation, legal, random.Random(0))]
    knock = best_knock(_mask(observation["hand"]), legal)[1]
    return sorted([*ranked_discards(observation, legal)[:SEARCH_DISCARDS], knock])


# The opponent model's weights (see opponent_pool); how they were chosen: benchmarks/bots-gin.md.
MISFIT_WEIGHT = 20.0
DEADWOOD_WEIGHT = 0.3
DISCARD_WEIGHT = 5.0
TAKEN_WEIGHT = 10.0
POOL_SIZE = 300
DEADWOOD_TURNS = 6
POOL_TEMPERATURE = 2.0
KNOCK_REGRET = 30.0


def misfits(hand: int, refused: int) -> int:
    """How many refused cards would meld with ``hand`` (a sensible player keeps such cards)."""
    if not refused:
        return 0
    base = deadwood_mask(hand)
    n = 0
    for c in cards_of(refused & ~hand):
        n += deadwood_mask(hand | 1 << c) < base + CARD_VALUES[c]
    return n


class LastDiscard(NamedTuple):
    """What the opponent saw when he made his last discard (for :func:`discard_regret`)."""

    card: int
    banned: int
    stock: int
    pile: int
    seen: int  # the cards of the searching seat he had seen taken
    refused: int  # the cards the searching seat had thrown or passed on


def last_discard(
    log: list[tuple[int, int, int]],
    pile: list[int],
    known: int,
    me: int,
    opp: int,
    stock: int,
    allow_same: bool,
) -> LastDiscard | None:
    """The opponent's view at his last plain discard, rebuilt from the log (None: he has not discarded)."""
    i = len(log) - 1
    while i >= 0 and not (log[i][0] == opp and log[i][1] < KNOCK_BASE):
        i -= 1
    if i < 0:
        return None
    d = log[i][2]
    took = False
    for s, a, _ in log[i + 1 :]:
        if s != me:
            return None
        if a == TAKE:
            took = True
        elif a == STOCK:
            stock += 1
    then = list(pile) if took else pile[:-1]
    pile_mask = 0
    for c in then:
        pile_mask |= 1 << c
    banned = log[i - 1][2] if i > 0 and log[i - 1][1] == TAKE and not allow_same else -1
    refused = refused_by(log[:i], then, me)
    return LastDiscard(d, banned, stock, pile_mask, known & ~(1 << d), refused)


def discard_regret(hand: int, last: LastDiscard) -> float:
    """How far the opponent's last discard is from what the rules bot would have done holding ``hand``
    and that card: its cost above the cheapest discard, or ``KNOCK_REGRET`` if it would have knocked."""
    eleven = hand | 1 << last.card
    allowed = eleven & ~(1 << last.banned) if last.banned >= 0 else eleven
    discards = cards_of(allowed)
    knocks = knock_discards(eleven) & allowed
    if knocks and _knock_choice(eleven, [KNOCK_BASE + c for c in cards_of(knocks)], last.stock) >= 0:
        return KNOCK_REGRET
    costs = discard_costs(eleven, discards, last.stock, last.seen, last.pile, last.refused)
    mine = min(cost for cost, a in costs)
    return next(cost for cost, a in costs if a == last.card) - mine


def opponent_pool(
    mine: int,
    unseen: list[int],
    size: int,
    refused: int,
    last: LastDiscard | None,
    deadwood_weight: float,
    rng: random.Random,
) -> tuple[list[int], list[float]]:
    """Candidate hands for the opponent (``mine``, the cards he was seen taking, plus ``size`` unseen
    cards) with cumulative weights ``exp(-implausibility / POOL_TEMPERATURE)``: each card he threw or
    passed on that would meld with the hand (``MISFIT_WEIGHT``), each card he took that lies outside his
    melds (``TAKEN_WEIGHT``), his last discard's cost above the rules bot's cheapest choice
    (``DISCARD_WEIGHT``) and the deadwood (``deadwood_weight``: ``DEADWOOD_WEIGHT``, less in his first
    ``DEADWOOD_TURNS`` turns, when his hand is still close to a random deal)."""
    hands = []
    scores = []
    for _ in range(POOL_SIZE):
        mask = mine
        for c in rng.sample(unseen, size):
            mask |= 1 << c
        score = MISFIT_WEIGHT * misfits(mask, refused) + deadwood_weight * deadwood_mask(mask)
        if mine:
            score += TAKEN_WEIGHT * (deadwood_cards_mask(mask) & mine).bit_count()
        if last is not None and DISCARD_WEIGHT:
            score += DISCARD_WEIGHT * discard_regret(mask, last)
        hands.append(mask)
        scores.append(score)
    low = min(scores)
    cum = []
    total = 0.0
    for score in scores:
        total += math.exp((low - score) / POOL_TEMPERATURE)
        cum.append(total)
    return hands, cum


class GinSampler:
    """One search bot's draws of gin states: ``Gin.sample_state`` with the opponent's hand from
    :func:`opponent_pool`, the pool built once per observation (kept until another comes)."""

    def __init__(self, game: Gin) -> None:
        self.game = game
        self._observation: Observation | None = None
        self._pool: tuple[Observation, list[int], list[float]] | None = None

    def __call__(self, observation: Observation, rng: random.Random) -> GinState:
        self._observation = observation
        return self.game.sample_state(observation, rng, self._opponent_hand)

    def _opponent_hand(
        self, state: GinState, opp: int, unseen: list[int], size: int, rng: random.Random
    ) -> int:
        observation = self._observation
        cache = self._pool
        if cache is not None and cache[0] is observation:
            pool, cum = cache[1], cache[2]
        else:
            assert observation is not None
            log = state.log
            holder = state.nondealer if opp == state.dealer else state.dealer
            turns = sum(1 for s, a, _ in log if a < LAYOFF_BASE and s == opp)
            stock = len(unseen) - size
            pool, cum = opponent_pool(
                state.known[opp],
                unseen,
                size,
                refused_by(log, state.pile, opp),
                last_discard(log, state.pile, state.known[holder], holder, opp, stock, state.allow_same),
                DEADWOOD_WEIGHT * min(turns, DEADWOOD_TURNS) / DEADWOOD_TURNS,
                rng,
            )
            self._pool = (observation, pool, cum)
        return pool[0] if len(pool) == 1 else rng.choices(pool, cum_weights=cum)[0]


def make_sampler(game: Game) -> Callable[[Observation, random.Random], GinState]:
    """A sampler for one search bot (its own pool cache)."""
    assert isinstance(game, Gin)
    return GinSampler(game)


def expert_policy(game: Game, observation: Observation, legal: list[int], rng: random.Random) -> int:
    """The hook the ``expert`` bot calls for gin: the gin expert policy (``bots/gin_expert.py``:
    the rules bot's play with discards and knocks read against beliefs about the opponent's hand)."""
    # Looked up by name at the first call, as the registry finds the rules modules: gin_expert builds
    # on this module, so an import here would make the two a cycle.
    policy: Callable[[Game, Observation, list[int], random.Random], int]
    policy = importlib.import_module("cardhall.bots.gin_expert").expert_policy
    return policy(game, observation, legal, rng)
