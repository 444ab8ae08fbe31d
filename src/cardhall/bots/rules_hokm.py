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
"""

from __future__ import annotations

import random
from typing import Any

from cardhall.bots.base import BaseBot
from cardhall.cards import ACE, JACK, KING, NINE, QUEEN, SUITS, TEN, format_card
from cardhall.core import Observation
from cardhall.games.hokm import (
    BID_BASE,
    DECK,
    KABOOT,
    PLAIN_STRENGTH,
    PLAYERS,
    TRUMP_BASE,
    TRUMP_STRENGTH,
)

CARD = {format_card(c): c for c in range(52)}
DECK_SET = frozenset(DECK)


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


def best_trump(hand: list[int]) -> tuple[int, float]:
    values = [estimate(hand, t) for t in range(4)]
    best = max(range(4), key=lambda t: (values[t], t))
    return best, values[best]


def defender_estimate(hand: list[int]) -> float:
    values = sorted(estimate(hand, t) for t in range(4))
    return sum(values[:3]) / 3


# --- the bot -------------------------------------------------------------------------------------


class HokmRulesBot(BaseBot):
    name = "rules"

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = observation["phase"]
        hand = [CARD[c] for c in observation["hand"]]
        if phase == "bidding":
            return self._bid(observation, hand, legal_actions)
        if phase == "trump":
            return TRUMP_BASE + best_trump(hand)[0]
        return self._play(observation, hand, legal_actions)

    # --- bidding -------------------------------------------------------------------------------

    def _bid(self, o: Observation, hand: list[int], legal: list[int]) -> int:
        top = max((b["contract"] for b in o["bids"]), default=0)
        _, as_declarer = best_trump(hand)
        wish_declarer = int(as_declarer - 0.3)
        if as_declarer >= 9.6:
            wish = KABOOT
        elif wish_declarer > top and wish_declarer >= 3:
            wish = wish_declarer
        else:
            wish = int(defender_estimate(hand) - 0.2)
            if wish > top:  # bidding it would make us declarer after all
                wish = max(wish_declarer, top)
        wish = max(2, min(9 if wish < KABOOT else KABOOT, wish))
        choices = [a for a in legal if a - BID_BASE + 2 <= wish]
        return max(choices) if choices else min(legal)

    # --- play ----------------------------------------------------------------------------------

    def _play(self, o: Observation, hand: list[int], legal: list[int]) -> int:
        me: int = o["seat"]
        trump = SUITS.index(o["trump"])
        trick = [(p["seat"], CARD[p["card"]]) for p in o["trick"]]
        played: set[int] = {c for _, c in trick}
        void = [[False] * 4 for _ in range(PLAYERS)]
        for t in [*o["tricks"], {"cards": o["trick"]}]:
            cards: list[dict[str, Any]] = t["cards"]
            if not cards:
                continue
            led = CARD[cards[0]["card"]] // 13
            for p in cards:
                c = CARD[p["card"]]
                played.add(c)
                if c // 13 != led:
                    void[p["seat"]][led] = True
        unseen = DECK_SET - played - set(hand)
        contracts = [2] * PLAYERS
        for b in o["bids"]:
            contracts[b["seat"]] = b["contract"]
        won = o["tricks_won"]
        need = contracts[me] - won[me]
        mode = self.game.option("overtricks")
        if mode == "exact":
            want = need > 0
        elif mode == "count":
            want = True
        else:
            want = need > 0 or any(contracts[s] > won[s] for s in range(PLAYERS) if s != me)
        opponents = [s for s in range(PLAYERS) if s != me]
        unseen_trumps = [c for c in unseen if c // 13 == trump]

        def master(c: int) -> bool:
            r = rank_in_suit(c, trump)
            return not any(u // 13 == c // 13 and rank_in_suit(u, trump) > r for u in unseen)

        def may_ruff(s: int, suit: int) -> bool:
            return suit != trump and void[s][suit] and not void[s][trump] and bool(unseen_trumps)

        if not trick:
            return self._lead(hand, legal, trump, want, master, may_ruff, opponents, unseen_trumps, void)
        led = trick[0][1] // 13
        best = max(key(c, trump, led) for _, c in trick)
        winners = sorted((c for c in legal if key(c, trump, led) > best), key=lambda c: key(c, trump, led))
        losers = [c for c in legal if key(c, trump, led) <= best]
        if want and winners:
            if len(trick) == PLAYERS - 1:
                return winners[0]
            nxt = (me + 1) % PLAYERS

            def safe(c: int) -> bool:
                k = key(c, trump, led)
                for u in unseen:
                    if u // 13 == led and not void[nxt][led] and key(u, trump, led) > k:
                        return False
                    if (
                        u // 13 == trump
                        and key(u, trump, led) > k
                        and (led == trump or void[nxt][led])
                        and not void[nxt][trump]
                    ):
                        return False
                return not (c // 13 != trump and may_ruff(nxt, led))

            for c in winners:
                if safe(c):
                    return c
            if led != trump and winners[0] // 13 == trump:
                return winners[0]  # ruff low and hope
            if not losers:
                return winners[0]
        if not losers:
            return winners[0]
        if not want:
            # Duck: shed the highest card that still loses.
            return max(losers, key=lambda c: (rank_in_suit(c, trump), c // 13 != trump))
        return min(losers, key=lambda c: (c // 13 == trump, master(c), rank_in_suit(c, trump), c))

    def _lead(
        self,
        hand: list[int],
        legal: list[int],
        trump: int,
        want: bool,
        master: Any,
        may_ruff: Any,
        opponents: list[int],
        unseen_trumps: list[int],
        void: list[list[bool]],
    ) -> int:
        trumps = [c for c in legal if c // 13 == trump]
        side = [c for c in legal if c // 13 != trump]
        lengths = [sum(1 for c in hand if c // 13 == s) for s in range(4)]
        if not want:
            pool = side or trumps
            return min(pool, key=lambda c: (rank_in_suit(c, trump), lengths[c // 13]))
        trumps_out = bool(unseen_trumps) and not all(void[s][trump] for s in opponents)
        if trumps and trumps_out:
            top = max(trumps, key=lambda c: rank_in_suit(c, trump))
            if master(top):
                return top
        cash = [c for c in side if master(c) and not any(may_ruff(s, c // 13) for s in opponents)]
        if cash:
            return max(cash, key=lambda c: (lengths[c // 13], rank_in_suit(c, trump)))
        if trumps and trumps_out and len(trumps) > len(unseen_trumps):
            return min(trumps, key=lambda c: rank_in_suit(c, trump))
        if side:
            if trumps:
                return min(side, key=lambda c: (lengths[c // 13], rank_in_suit(c, trump)))
            return min(side, key=lambda c: (-lengths[c // 13], rank_in_suit(c, trump)))
        return min(trumps, key=lambda c: rank_in_suit(c, trump))


RULES_BOT = HokmRulesBot
