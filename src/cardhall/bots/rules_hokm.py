"""The ``rules`` bot for Hokm: a club player's habits, from the observation alone.

- **Contract**: the hand is valued as trick estimates, once with each suit as trump (trump honours by the
  trump ranking J 9 A 10 K Q, extra trump length, side aces and guarded tens, ruffing value of short side
  suits) and once as a defender (trump unknown: the mean over the suits it is weakest in). It bids the
  declarer estimate, shaded down, when that beats the highest bid so far (it then names trump), otherwise
  its defender estimate (which leaves the trump choice to a higher bidder); Kaboot only with a near-certain
  hand. In an auction it bids the highest legal value not above its wish, else Bas.
- **Trump**: the suit giving the highest estimate (length and honours).
- **Play**: it wants tricks while its own contract is unmade, and afterwards while an opponent still needs
  tricks (a failed opponent is a gain) — unless overtricks fail (``overtricks=exact``), when it ducks.
  Leading: draws trumps with the master trump, cashes side masters no opponent can ruff, else leads low
  from a short suit (to ruff later) when holding trumps, else low from its longest suit. Following: last
  to play it wins as cheaply as it can; second it wins only with a card the last player cannot beat (or
  ruffs low when void), else it ducks. It never wastes a high card on a lost trick: it discards the lowest
  card of a side suit, keeping masters and trumps; when ducking it sheds the highest losing card.

It reads the form of the observation bots get (``ints=True``: cards as ints). ``act_state`` makes the
same choice straight from a state for the search bot's rollouts, reading only what the seat's
observation shows (its hand, the cards played, the bids, the trump). Both work on bitmasks: the cards
not yet seen, each seat's known voids as four suit bits, and per-trump tables (the cards of the same
suit that beat a card, the cards that beat it in a trick) make "is this a master?" and "can the next
player beat this?" one mask test each.
"""

from __future__ import annotations

import random
from typing import Any, Final

from cardhall.bots.base import BaseBot
from cardhall.bots.trick_reading import played_and_voids
from cardhall.cards import ACE, JACK, KING, NINE, QUEEN, SUIT_MASKS, SUITS, TEN
from cardhall.core import Game, Observation
from cardhall.games.hokm.rules import (
    BID_BASE,
    BIDDING,
    DECK,
    DECK_MASK,
    DISPLAY_CARDS,
    KABOOT,
    PLAIN_STRENGTH,
    PLAY,
    PLAYERS,
    TRUMP_BASE,
    TRUMP_STRENGTH,
    HokmState,
)


def key(card: int, trump: int, led: int) -> int:
    """How strongly ``card`` plays to a trick led in ``led`` with ``trump`` (0: it cannot win)."""
    suit = card // 13
    if suit == trump:
        return 100 + TRUMP_STRENGTH[card % 13]
    if suit == led:
        return PLAIN_STRENGTH[card % 13]
    return 0


def rank_in_suit(card: int, trump: int) -> int:
    return TRUMP_STRENGTH[card % 13] if card // 13 == trump else PLAIN_STRENGTH[card % 13]


# --- tables: per trump (and led suit), per card ----------------------------------------------------

# RANK[trump][card]: the card's rank within its suit (the trump order in the trump suit).
RANK: Final = tuple(tuple(rank_in_suit(c, t) for c in range(52)) for t in range(4))
# BEATERS[trump][card]: the cards of the same suit that rank above it (none unseen: a master).
BEATERS: Final = tuple(
    tuple(
        sum(1 << u for u in DECK if u // 13 == c // 13 and RANK[t][u] > RANK[t][c]) if c in DECK else 0
        for c in range(52)
    )
    for t in range(4)
)
# KEYS[trump * 4 + led][card]: ``key``; ABOVE[trump * 4 + led][card]: the cards with a higher key.
KEYS: Final = tuple(tuple(key(c, t, led) for c in range(52)) for t in range(4) for led in range(4))
ABOVE: Final = tuple(
    tuple(sum(1 << u for u in DECK if keys[u] > keys[c]) for c in range(52)) for keys in KEYS
)
# DUCK_KEY[trump][card]: the order in which a ducking player sheds losers (highest rank, side suit first).
DUCK_KEY: Final = tuple(tuple(2 * RANK[t][c] + (c // 13 != t) for c in range(52)) for t in range(4))
NEXT: Final = tuple((s + 1) % PLAYERS for s in range(PLAYERS))
OPPONENTS: Final = tuple(tuple(s for s in range(PLAYERS) if s != me) for me in range(PLAYERS))
# SUITS_OF[mask]: the suit bits of a union of whole suits (a seat's exclusions in the plain game).
SUITS_OF: Final = {sum(SUIT_MASKS[s] for s in range(4) if bits >> s & 1): bits for bits in range(16)}
# Cached hand values (per bot) are forgotten past this many hands.
_VALUE_CACHE_SIZE: Final = 50_000


def display_order(hand: int) -> list[int]:
    """A hand mask as the observation lists it (suit by suit, high rank first): hand values add up
    their floats in this order."""
    return [
        *DISPLAY_CARDS[0][hand >> 5 & 255],
        *DISPLAY_CARDS[1][hand >> 18 & 255],
        *DISPLAY_CARDS[2][hand >> 31 & 255],
        *DISPLAY_CARDS[3][hand >> 44 & 255],
    ]


# --- hand valuation ------------------------------------------------------------------------------

_TRUMP_VALUES = {JACK: 1.0, NINE: 0.85, ACE: 0.7, TEN: 0.45, KING: 0.25, QUEEN: 0.15}


def estimate(hand: list[int], trump: int) -> float:
    """Expected tricks of ``hand`` with ``trump`` as trump, playing it as declarer."""
    suits: list[list[int]] = [[] for _ in range(4)]
    for c in hand:
        suits[c // 13].append(c % 13)
    trumps = suits[trump]
    n = len(trumps)
    value = sum(_TRUMP_VALUES.get(r, 0.0) for r in trumps)
    value += 0.55 * max(0, n - 3)
    value = min(float(n), value)
    for s in range(4):
        if s == trump:
            continue
        ranks = suits[s]
        side = 0.0
        if ACE in ranks:
            side += 0.9
        if TEN in ranks:
            side += 0.75 if ACE in ranks else (0.3 if len(ranks) >= 2 else 0.05)
        if KING in ranks and ACE in ranks and TEN in ranks:
            side += 0.4
        value += min(float(len(ranks)), side)
        if n >= 3:
            value += 0.55 if not ranks else 0.25 if len(ranks) == 1 else 0.0
    return value


def _best_of(values: tuple[float, ...] | list[float]) -> tuple[int, float]:
    best = max(range(4), key=lambda t: (values[t], t))
    return best, values[best]


def best_trump(hand: list[int]) -> tuple[int, float]:
    return _best_of([estimate(hand, t) for t in range(4)])


def _defender(values: tuple[float, ...] | list[float]) -> float:
    low = sorted(values)
    return sum(low[:3]) / 3


def defender_estimate(hand: list[int]) -> float:
    return _defender([estimate(hand, t) for t in range(4)])


# --- the bot -------------------------------------------------------------------------------------


class HokmRulesBot(BaseBot):
    name = "rules"

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.overtricks: str = game.option("overtricks")
        # Without the trump duties a state's exclusions are exactly the suits each seat failed to
        # follow: its voids, read in one lookup per seat (else from the tricks).
        self.plain_exclusions = not (game.option("must_trump_when_void") or game.option("must_overtrump"))
        # The four trump estimates of each hand seen (a hand mask's), for bids and the trump choice.
        self._values: dict[int, tuple[float, ...]] = {}

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        o = observation
        phase = o["phase"]
        if phase != PLAY:
            hand = 0
            for c in o["hand"]:
                hand |= 1 << c
            if phase == BIDDING:
                top = max((b["contract"] for b in o["bids"]), default=0)
                return self._bid(hand, top, legal_actions)
            return TRUMP_BASE + _best_of(self._hand_values(hand))[0]
        me: int = o["seat"]
        hand = 0
        for c in o["hand"]:
            hand |= 1 << c
        trick = [(p["seat"], p["card"]) for p in o["trick"]]
        played, voids = played_and_voids(o["tricks"], o["trick"], PLAYERS)
        contracts = [2] * PLAYERS
        for b in o["bids"]:
            contracts[b["seat"]] = b["contract"]
        unseen = DECK_MASK & ~played & ~hand
        trump = SUITS.index(o["trump"])
        return self._play(me, hand, legal_actions, trump, trick, unseen, voids, contracts, o["tricks_won"])

    def act_state(self, state: HokmState, seat: int, legal: list[int], rng: random.Random) -> int:
        """The same choice as ``act(state.observation(seat, ints=True), legal, rng)``, read straight
        from the state (the search bot's rollouts): its own hand, the tricks, the bids and the trump,
        all in its observation; of the other hands only their union, the cards it has not seen."""
        if len(legal) == 1:
            return legal[0]
        hands = state.hands
        hand = hands[seat]
        phase = state.phase
        if phase == BIDDING:
            top = max((c for _, c in state.bids), default=0)
            return self._bid(hand, top, legal)
        if phase != PLAY:
            return TRUMP_BASE + _best_of(self._hand_values(hand))[0]
        trick = state.trick
        if self.plain_exclusions:
            voids = [SUITS_OF[e] for e in state.excluded]
        else:
            voids = [0] * PLAYERS
            for _, cards, _ in state.tricks:
                led = cards[0][1] // 13
                for s, c in cards:
                    if c // 13 != led:
                        voids[s] |= 1 << led
            if trick:
                led = trick[0][1] // 13
                for s, c in trick:
                    if c // 13 != led:
                        voids[s] |= 1 << led
        contracts = [2] * PLAYERS
        for s, c in state.bids:
            contracts[s] = c
        unseen = (hands[0] | hands[1] | hands[2]) ^ hand
        return self._play(seat, hand, legal, state.trump, trick, unseen, voids, contracts, state.tricks_won)

    # --- bidding -------------------------------------------------------------------------------

    def _hand_values(self, hand: int) -> tuple[float, ...]:
        """The hand's estimate with each suit as trump (cached per hand)."""
        values = self._values.get(hand)
        if values is None:
            cards = display_order(hand)
            values = tuple([estimate(cards, t) for t in range(4)])
            if len(self._values) >= _VALUE_CACHE_SIZE:
                self._values.clear()
            self._values[hand] = values
        return values

    def _bid(self, hand: int, top: int, legal: list[int]) -> int:
        values = self._hand_values(hand)
        _, as_declarer = _best_of(values)
        wish_declarer = int(as_declarer - 0.3)
        if as_declarer >= 9.6:
            wish = KABOOT
        elif wish_declarer > top and wish_declarer >= 3:
            wish = wish_declarer
        else:
            wish = int(_defender(values) - 0.2)
            if wish > top:  # bidding it would make us declarer after all
                wish = max(wish_declarer, top)
        wish = max(2, min(9 if wish < KABOOT else KABOOT, wish))
        choices = [a for a in legal if a - BID_BASE + 2 <= wish]
        return max(choices) if choices else min(legal)

    # --- play ----------------------------------------------------------------------------------

    def _play(
        self,
        me: int,
        hand: int,
        legal: list[int],
        trump: int,
        trick: list[tuple[int, int]],
        unseen: int,
        voids: list[int],
        contracts: list[int],
        won: list[int],
    ) -> int:
        """The card to play: ``hand`` and ``unseen`` (the cards neither played nor in the hand) are
        masks, ``voids[seat]`` the suits (bits) the seat has shown it lacks."""
        mode = self.overtricks
        if mode == "exact":
            want = contracts[me] > won[me]
        elif mode == "count":
            want = True
        else:
            want = contracts[me] > won[me] or any(contracts[s] > won[s] for s in OPPONENTS[me])
        unseen_trumps = unseen & SUIT_MASKS[trump]
        if not trick:
            return self._lead(me, hand, legal, trump, want, unseen, unseen_trumps, voids)
        led = trick[0][1] // 13
        keys = KEYS[trump * 4 + led]
        best = max([keys[c] for _, c in trick])
        winners = sorted([c for c in legal if keys[c] > best], key=keys.__getitem__)
        losers = [c for c in legal if keys[c] <= best]
        if want and winners:
            if len(trick) == PLAYERS - 1:
                return winners[0]
            nxt_voids = voids[NEXT[me]]
            follows = not nxt_voids >> led & 1  # the next player may still hold the suit led
            has_trumps = not nxt_voids >> trump & 1
            # The unseen cards the next player could beat a card with: the suit led while he may
            # follow, trumps when he may not (or trumps were led) and may hold some.
            danger = 0
            if follows:
                danger = SUIT_MASKS[led]
            if has_trumps and (led == trump or not follows):
                danger |= SUIT_MASKS[trump]
            danger &= unseen
            # He may ruff a side card: void in the suit led, not known void in trumps, trumps out.
            ruffs = led != trump and not follows and has_trumps and unseen_trumps
            above = ABOVE[trump * 4 + led]
            for c in winners:
                if not above[c] & danger and not (ruffs and c // 13 != trump):
                    return c
            if led != trump and winners[0] // 13 == trump:
                return winners[0]  # ruff low and hope
            if not losers:
                return winners[0]
        if not losers:
            return winners[0]
        if not want:
            # Duck: shed the highest card that still loses.
            return max(losers, key=DUCK_KEY[trump].__getitem__)
        # Discard: a side card before a trump, a non-master before a master, low first.
        rank = RANK[trump]
        beaters = BEATERS[trump]
        return min(
            losers,
            key=lambda c: ((c // 13 == trump) << 13) | ((not beaters[c] & unseen) << 12) | (rank[c] << 6) | c,
        )

    def _lead(
        self,
        me: int,
        hand: int,
        legal: list[int],
        trump: int,
        want: bool,
        unseen: int,
        unseen_trumps: int,
        voids: list[int],
    ) -> int:
        rank = RANK[trump]
        trumps = [c for c in legal if c // 13 == trump]
        side = [c for c in legal if c // 13 != trump]
        lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
        if not want:
            pool = side or trumps
            return min(pool, key=lambda c: rank[c] * 16 + lengths[c // 13])
        opponents = OPPONENTS[me]
        trumps_out = bool(unseen_trumps) and not all(voids[s] >> trump & 1 for s in opponents)
        beaters = BEATERS[trump]
        if trumps and trumps_out:
            top = max(trumps, key=rank.__getitem__)
            if not beaters[top] & unseen:
                return top
        # The side suits an opponent may ruff: he showed a void in it and none in trumps, trumps out.
        ruffable = 0
        if unseen_trumps:
            for s in opponents:
                if not voids[s] >> trump & 1:
                    ruffable |= voids[s]
        cash = [c for c in side if not beaters[c] & unseen and not ruffable >> (c // 13) & 1]
        if cash:
            return max(cash, key=lambda c: lengths[c // 13] * 16 + rank[c])
        if trumps and trumps_out and len(trumps) > unseen_trumps.bit_count():
            return min(trumps, key=rank.__getitem__)
        if side:
            if trumps:
                return min(side, key=lambda c: lengths[c // 13] * 16 + rank[c])
            return min(side, key=lambda c: (16 - lengths[c // 13]) * 16 + rank[c])
        return min(trumps, key=rank.__getitem__)


def review_thresholds(game: Game) -> tuple[float, float, float]:
    """The review's inaccuracy, mistake and blunder thresholds (:mod:`cardhall.review`), in points of
    the deal value (contracts score 10 a trick bid)."""
    return (5.0, 15.0, 40.0)


# What a search pays at each kind of decision, for the bot tier's scheduler (see cardhall.bots.rules).
# Hokm's gain lies mostly in the contract: searching only the bids and the trump choice, the rules move
# on every card, keeps most of what searching every decision gains over the rules bot (measured:
# benchmarks/load.md, "The strength hard keeps under load"), so under load these are thought first.
RULES_BOT = HokmRulesBot
