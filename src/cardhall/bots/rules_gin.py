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
- **Lay-offs**: it lays off the card that lowers its deadwood most, one at a time, and says ``done`` when no
  lay-off lowers it (a card that is part of its own meld is kept).
- **Three players**: as box or captain it plays its hand; as advisor it suggests exactly what it would play
  with the team hand (the captain's choice above).
- **Rollouts**: ``act_state`` makes the same choice straight from a state (what the seat's observation
  shows, without building it), for the search bot's rollouts; ``discard_costs`` / ``ranked_discards``
  give the search bot its gin candidates and ``Gin.sample_state`` its opponent model.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cardhall.bots.base import BaseBot
from cardhall.cards import format_card
from cardhall.core import Observation
from cardhall.games.gin import (
    DONE,
    KNOCK_BASE,
    LAYOFF_BASE,
    NO_SUGGESTION,
    PASS,
    STOCK,
    SUGGEST_BASE,
    TAKE,
    GinState,
)
from cardhall.games.gin_melds import CARD_VALUES, RANK_MASKS, deadwood_cards_mask, deadwood_mask

CARD = {format_card(c): c for c in range(52)}
BIT = {format_card(c): 1 << c for c in range(52)}
FULL_STOCK = 31

# Gin order within a suit (A low): GIN_NEXT[c] / GIN_PREV[c] is the card one rank above / below in its
# suit, or -1 at the ends (K has no higher, A no lower).
GIN_NEXT = tuple(-1 if c % 13 == 11 else (c - 12 if c % 13 == 12 else c + 1) for c in range(52))
GIN_PREV = tuple(-1 if c % 13 == 12 else (c + 12 if c % 13 == 0 else c - 1) for c in range(52))


# How each logged move changes the discard pile: (kind, card).
PUT, PICK, REFUSE, OTHER = range(4)
MOVE: dict[str, tuple[int, int]] = {"pass": (REFUSE, -1), "draw stock": (REFUSE, -1), "done": (OTHER, -1)}
for _c, _label in enumerate(CARD):
    MOVE["discard " + _label] = MOVE["knock " + _label] = (PUT, _c)
    MOVE["take " + _label] = (PICK, _c)
    MOVE["lay off " + _label] = (OTHER, _c)


def _mask(labels: list[str]) -> int:
    m = 0
    for c in labels:
        m |= BIT[c]
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
        if first >= STOCK:  # TAKE with STOCK or PASS
            return self._draw(hand, CARD[o["discard_pile"][-1]], o["stock_size"], legal)
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
            return self.act(state.observation(seat), legal, rng)
        hand = state.hands[seat]
        first = legal[0]
        if first >= LAYOFF_BASE and first < STOCK:
            return self._lay_off(hand, legal)
        pile = state.pile
        if first >= STOCK:
            return self._draw(hand, pile[-1], len(state.stock), legal)
        opp = state.dealer if seat == state.nondealer else state.nondealer
        pile_mask = 0
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
        moves = [(m["seat"], *MOVE[m["action"]]) for m in o["moves"]]
        pile = [CARD[c] for c in o["discard_pile"]]
        for _, kind, c in reversed(moves):  # back to the pile as dealt: the up-card alone
            if kind == PUT:
                pile.pop()
            elif kind == PICK:
                pile.append(c)
        refused = 0
        for who, kind, c in moves:
            if kind == PICK:
                pile.pop()
            elif kind == PUT:
                pile.append(c)
                if who == opp:
                    refused |= 1 << c
            elif kind == REFUSE and who == opp and pile:
                refused |= 1 << pile[-1]
        return refused


RULES_BOT = GinRulesBot
