"""``rules`` for Hearts (Cancellation Hearts with two decks and ordinary one-deck Hearts).

A club player's habits, from the observation alone (the cards it holds, every card played this hand and by
whom, the passes it made and received, the points taken so far). With two decks a card counts as "out"
as many times as its copies not yet seen.

- **Passing**: Q♠ unless it is guarded by four lower spades; A♠ and K♠ when the spades are short (they
  catch the Q♠); then high hearts, then the highest cards of short suits (to make a void), never low
  cards.
- **Leading**: the card least likely to win its trick: a low card of a suit with many higher cards still
  out, not a suit in which an opponent has shown a void (he would dump points on it). It leads spades to
  smoke out Q♠ when it holds no high spade, and never leads A♠/K♠ while a Q♠ is out, nor Q♠ itself.
- **Following**: it ducks with the highest card that does not win the trick — with two decks a
  duplicate of the winning card cancels it, which is the best duck of all; Q♠ goes under a higher spade
  at once. When it cannot duck and plays last it wins with its highest card (keeping Q♠); earlier, it
  wins with its lowest card when the trick holds points (a later player may still overtake), else with
  its highest.
- **Discarding** (void): Q♠ first, then A♠/K♠ while a Q♠ is out, then its highest heart, then the
  highest card of its shortest suit.
- **Moon**: it never tries to shoot, but when one opponent holds every point taken so far and a lot of
  them, it takes a trick with points if it can and stops feeding him hearts. As the shooter it chooses
  ``moon plus`` when that leaves it alone at the lowest total (or ends the match with it winning), else
  ``moon minus``.
"""

from __future__ import annotations

import random

from cardhall.bots.base import BaseBot
from cardhall.cards import ACE, HEARTS, KING, QUEEN, SPADES, format_card
from cardhall.core import Observation
from cardhall.games.hearts import MOON_MINUS, MOON_PLUS, pass_order

CARD = {format_card(c): c for c in range(52)}
QS = SPADES * 13 + QUEEN
KS = SPADES * 13 + KING
AS = SPADES * 13 + ACE


def points(face: int) -> int:
    return 13 if face == QS else (1 if face // 13 == HEARTS else 0)


SUIT = tuple(c // 13 for c in range(52))
POINTS = tuple(points(c) for c in range(52))


class HeartsRulesBot(BaseBot):
    name = "rules"

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = observation["phase"]
        if phase == "play":
            return self._play(observation, legal_actions)
        if phase == "pass":
            return self._pass(observation, legal_actions)
        return self._moon(observation, legal_actions)

    # --- passing -------------------------------------------------------------------------------

    def _pass(self, o: Observation, legal: list[int]) -> int:
        return pass_order([CARD[c] for c in o["hand"]], legal)[0]

    # --- the moon choice ------------------------------------------------------------------------

    def _moon(self, o: Observation, legal: list[int]) -> int:
        me: int = o["seat"]
        scores: list[int] = o["scores"]
        value = int(self.game.option("moon_value"))
        plus = [v if s == me else v + value for s, v in enumerate(scores)]
        others = min(v for s, v in enumerate(plus) if s != me)
        if plus[me] < others:
            return MOON_PLUS if MOON_PLUS in legal else legal[0]
        return MOON_MINUS if MOON_MINUS in legal else legal[0]

    # --- play ----------------------------------------------------------------------------------

    def _play(self, o: Observation, legal: list[int]) -> int:
        me: int = o["seat"]
        decks = int(self.game.option("decks"))
        n = len(o["hand_sizes"])
        hand = [CARD[c] for c in o["hand"]]
        # Copies of each face not yet seen (not played, not in my hand).
        out = [decks] * 52
        for c in hand:
            out[c] -= 1
        void = [0] * n  # per seat, a bit per suit it has shown it lacks
        pending = 0  # points of the set-aside tricks since the last won trick
        card_of = CARD
        suit_of = SUIT
        for t in o["tricks"]:
            cards = t["cards"]
            led = suit_of[card_of[cards[0]["card"]]]
            trick_points = 0
            for p in cards:
                c = card_of[p["card"]]
                out[c] -= 1
                trick_points += POINTS[c]
                if suit_of[c] != led:
                    void[p["seat"]] |= 1 << led
            pending = pending + trick_points if t["winner"] is None else 0
        trick: list[tuple[int, int]] = [(p["seat"], CARD[p["card"]]) for p in o["trick"]]
        for _, c in trick:
            out[c] -= 1
        queens_out = out[QS] > 0
        taken: list[int] = o["trick_points"]
        total = sum(taken)
        threat = -1
        if total >= 13 * decks:
            leaders = [s for s in range(n) if taken[s]]
            if len(leaders) == 1 and leaders[0] != me:
                threat = leaders[0]
        if not trick:
            return self._lead(hand, legal, out, void, me, queens_out)
        led = trick[0][1] // 13
        stake = pending + sum(POINTS[c] for _, c in trick)
        last = len(trick) == n - 1
        follow = legal[0] // 13 == led
        if not follow:
            return self._discard(hand, legal, queens_out, threat, trick, led)

        # Who wins now, and would each of my cards win (cancellation counted)?
        led_faces = [c for _, c in trick if c // 13 == led]

        def wins(card: int) -> bool:
            if card in led_faces:
                return False  # cancelled by its twin
            alive = [c for c in led_faces if led_faces.count(c) == 1]
            return not alive or card > max(alive)

        def current_winner() -> int:
            alive = [c for c in led_faces if led_faces.count(c) == 1]
            if not alive:
                return -1
            top = max(alive)
            return next(s for s, c in trick if c == top)

        ducks = [c for c in legal if not wins(c)]
        winners = [c for c in legal if wins(c)]
        if threat >= 0 and stake and current_winner() == threat and winners:
            return min(winners)  # stop the moon: take a trick with points
        if ducks:
            if QS in ducks:
                return QS
            return max(ducks)
        # Every card wins for now.
        keep = [c for c in winners if c != QS] or winners
        if last:
            return max(keep)
        if stake or (led == SPADES and queens_out):
            return min(keep)
        return max(keep)

    def _discard(
        self,
        hand: list[int],
        legal: list[int],
        queens_out: bool,
        threat: int,
        trick: list[tuple[int, int]],
        led: int,
    ) -> int:
        alive = [c for _, c in trick if c // 13 == led]
        alive = [c for c in alive if alive.count(c) == 1]
        winner = -1
        if alive:
            top = max(alive)
            winner = next(s for s, c in trick if c == top)
        feeding_threat = threat >= 0 and winner in (threat, -1)
        if not feeding_threat:
            if QS in legal:
                return QS
            if queens_out:
                high = [c for c in legal if c in (AS, KS)]
                if high:
                    return max(high)
            hearts = [c for c in legal if c // 13 == HEARTS]
            if hearts:
                return max(hearts)
        else:
            safe = [c for c in legal if not POINTS[c]]
            if safe:
                legal = safe
        lengths = [0, 0, 0, 0]
        for c in hand:
            lengths[c // 13] += 1
        return max(legal, key=lambda c: (c % 13 - 2 * lengths[c // 13], c % 13))

    def _lead(
        self,
        hand: list[int],
        legal: list[int],
        out: list[int],
        void: list[int],
        me: int,
        queens_out: bool,
    ) -> int:
        hold_high_spade = QS in hand or KS in hand or AS in hand
        others_void = 0
        for s, v in enumerate(void):
            if s != me:
                others_void |= v
        # below[c]: copies out of the cards of c's suit lower than c; total[suit]: all of the suit.
        below = [0] * 52
        total = [0, 0, 0, 0]
        for suit in range(4):
            k = 0
            for c in range(13 * suit, 13 * suit + 13):
                below[c] = k
                k += out[c]
            total[suit] = k

        def cost(c: int) -> float:
            suit, rank = divmod(c, 13)
            lower = below[c]
            higher = total[suit] - lower - out[c]
            value = float(rank)
            if higher == 0:
                value += 40.0 + 10.0 * (lower > 0)  # it wins if anyone follows
            else:
                value -= min(higher, 6)
            if others_void >> suit & 1:
                value += 12.0
            if c == QS:
                value += 60.0
            elif suit == SPADES:
                if c in (KS, AS) and queens_out:
                    value += 50.0
                elif not hold_high_spade and queens_out:
                    value -= 4.0  # smoke out the queen
                elif QS in hand:
                    value += 8.0
            if suit == HEARTS:
                value += 2.0
            return value

        return min(legal, key=lambda c: (cost(c), c))


RULES_BOT = HeartsRulesBot
