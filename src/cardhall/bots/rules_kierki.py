"""The ``rules`` bot for Kierki: a club player's habits, deal by deal, from the observation alone.

- **Negative deals (1-7)**: every card has a danger, the points it costs in a trick its holder wins (hearts
  in deal 2, queens in 3, kings and jacks in 4, the king of hearts in 5, all of them in the robber).
  Following suit it ducks with the highest card that still loses to the card winning the trick (so a queen
  slips under a king); when it must win it wins last with its highest harmless card, or, not last, with its
  lowest (someone may still go over it). Void, it dumps the most dangerous card (K♥ first), else its
  highest card. Leading, it picks the card least likely to win: harmless, with few unseen cards below it
  and many above. In deal 6 only the 7th and the 13th trick cost points: on the other tricks it sheds its
  high cards.
- **Trump deals (8-11)**: trump is the suit with the most of the first five cards, honours breaking ties.
  Leading, it draws trumps with the master trump, cashes side masters no opponent is known to ruff, leads
  trumps while it holds more than are out, else leads low from its shortest side suit (to ruff later).
  Following, last it wins as cheaply as it can; earlier it wins only with a card nobody unseen beats (or
  ruffs low when void); otherwise it plays its lowest card, keeping trumps and masters.
- **Lottery (12)**: among the cards it may lay it prefers those that open the way to its own cards further
  along the row, and holds back cards that would only open the way for others (blocking): a card whose
  next cards it holds costs nothing; an opening card of a suit it hardly holds is kept back.

It reads the observation's ints form (cards as ints, hands as bitmasks inside). ``act_state`` makes the
same choice straight from a state, for the search bot's rollouts: what the seat's observation would tell
it (its hand, the cards not yet seen, the voids shown, the trick on the table, the layout) read from the
state's bitmasks without building the observation.
"""

from __future__ import annotations

import random

from cardhall.bots.base import BaseBot
from cardhall.bots.trick_reading import played_and_voids
from cardhall.cards import HEARTS, JACK, KING, QUEEN, SUIT_MASKS, SUITS
from cardhall.core import Game, Observation
from cardhall.games.kierki.rules import LOTTERY, PASS, PLAY, PLAYERS, TRICKS, TRUMP, TRUMP_BASE, KierkiState

FULL = (1 << 52) - 1
# BELOW[c] / ABOVE[c]: the cards of c's suit lower / higher than c.
BELOW = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
ABOVE = tuple(SUIT_MASKS[c // 13] & ~((1 << (c + 1)) - 1) for c in range(52))


def _danger_table(deal: int) -> tuple[int, ...]:
    """The points each card costs the winner of its trick in a negative deal (deals 1 and 6: none)."""
    out = []
    for c in range(52):
        suit, rank = divmod(c, 13)
        d = 0
        if deal in (2, 7) and suit == HEARTS:
            d += 20
        if deal in (3, 7) and rank == QUEEN:
            d += 60
        if deal in (4, 7) and rank in (KING, JACK):
            d += 30
        if deal in (5, 7) and c == HEARTS * 13 + KING:
            d += 150
        out.append(d)
    return tuple(out)


DANGER = tuple(_danger_table(d) for d in range(8))


def choose_trump(hand: int) -> int:
    """The suit with most cards among the first five (``hand``, a bitmask), high cards breaking ties."""
    value = [0] * 4
    for c in range(52):
        if hand >> c & 1:
            suit, rank = divmod(c, 13)
            value[suit] += 100 + rank * rank
    return max(range(4), key=lambda s: (value[s], s))


def _voids(excluded: int) -> int:
    """The suits (a bit per suit) a seat has shown it lacks, from the cards it cannot hold (in the trump
    deals a union of whole suits, one per trick it did not follow)."""
    return (excluded & 1) | (excluded >> 12 & 2) | (excluded >> 24 & 4) | (excluded >> 36 & 8)


class KierkiRulesBot(BaseBot):
    name = "rules"

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        o = observation
        mine = 0
        for c in o["hand"]:
            mine |= 1 << c
        phase = o["phase"]
        if phase == TRUMP:
            return TRUMP_BASE + choose_trump(mine)
        if phase == LOTTERY:
            highs = [-1 if row is None else row["high"] % 13 for row in o["layout"]]
            return self._lottery(mine, legal_actions, highs)
        seen, void = played_and_voids(o["tricks"], o["trick"], PLAYERS)
        trick = [(p["seat"], p["card"]) for p in o["trick"]]
        unseen = FULL & ~seen & ~mine
        deal: int = o["deal_number"]
        if deal <= 7:
            return self._negative(deal, len(o["tricks"]) + 1, legal_actions, trick, unseen)
        trump = SUITS.index(o["trump"])
        return self._positive(o["seat"], trump, mine, legal_actions, trick, unseen, void)

    def act_state(self, state: KierkiState, seat: int, legal_actions: list[int], rng: random.Random) -> int:
        """The same choice as ``act(state.observation(seat, ints=True), legal_actions, rng)``, read
        from the state: the cards nobody has seen yet are the other hands (every card is dealt, and
        played cards leave the hands), the voids are the suits each seat has shown it cannot hold."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        hands = state.hands
        mine = hands[seat]
        phase = state.phase
        if phase == PLAY:
            unseen = (hands[0] | hands[1] | hands[2] | hands[3]) & ~mine
            deal = state.deal
            if deal <= 7:
                return self._negative(deal, len(state.tricks) + 1, legal_actions, state.trick, unseen)
            void = [_voids(e) for e in state.excluded]
            return self._positive(seat, state.trump, mine, legal_actions, state.trick, unseen, void)
        if phase == TRUMP:
            return TRUMP_BASE + choose_trump(mine)
        return self._lottery(mine, legal_actions, state.high)

    # --- negative deals ------------------------------------------------------------------------

    def _negative(
        self, deal: int, number: int, legal: list[int], trick: list[tuple[int, int]], unseen: int
    ) -> int:
        danger = DANGER[deal]
        free = deal == 6 and number not in (7, TRICKS)
        if not trick:
            if free:
                return max(legal, key=lambda c: (c % 13, c))
            # The least risky lead: harmless, few unseen cards below it, many above, low; ties go to
            # the first card in order (legal actions are sorted).
            risks = [
                (danger[c], (unseen & BELOW[c]).bit_count(), -(unseen & ABOVE[c]).bit_count(), c % 13, c)
                for c in legal
            ]
            return min(risks)[4]
        led = trick[0][1] // 13
        if legal[0] // 13 == led and legal[-1] // 13 == led:  # following suit
            top = max(c for _, c in trick if c // 13 == led)
            if free:
                return legal[-1]
            under = [c for c in legal if c < top]
            if under:
                return under[-1]  # duck with the highest card that still loses
            if len(trick) == PLAYERS - 1:  # last: the trick is ours; keep the low cards
                return min(legal, key=lambda c: (danger[c], -c))
            return min(legal, key=lambda c: (danger[c], c))
        # Void in the suit led: dump the most dangerous card, else the highest (from the suit with fewest
        # unseen cards; ties: the first card in order).
        dumps = [(danger[c], c % 13, -(unseen & SUIT_MASKS[c // 13]).bit_count(), -c) for c in legal]
        return -max(dumps)[3]

    # --- trump deals ---------------------------------------------------------------------------

    def _positive(
        self,
        me: int,
        trump: int,
        hand: int,
        legal: list[int],
        trick: list[tuple[int, int]],
        unseen: int,
        void: list[int],
    ) -> int:
        trump_mask = SUIT_MASKS[trump]
        unseen_trumps = unseen & trump_mask
        opponents = [s for s in range(PLAYERS) if s != me]

        def master(c: int) -> bool:
            return not unseen & ABOVE[c]

        def may_ruff(s: int, suit: int) -> bool:
            return (
                suit != trump
                and bool(void[s] >> suit & 1)
                and not void[s] >> trump & 1
                and bool(unseen_trumps)
            )

        if not trick:
            trumps = [c for c in legal if c // 13 == trump]
            side = [c for c in legal if c // 13 != trump]
            if trumps and unseen_trumps and master(trumps[-1]):
                return trumps[-1]
            cash = [c for c in side if master(c) and not any(may_ruff(s, c // 13) for s in opponents)]
            if cash:
                return max(cash, key=lambda c: ((unseen & SUIT_MASKS[c // 13]).bit_count(), c % 13))
            if trumps and unseen_trumps and len(trumps) > unseen_trumps.bit_count():
                return trumps[0]
            if side:
                lengths = [(hand >> (13 * suit) & 0x1FFF).bit_count() for suit in range(4)]
                if trumps:
                    return min(side, key=lambda c: (lengths[c // 13], c % 13))
                return min(side, key=lambda c: (-lengths[c // 13], c % 13))
            return trumps[0]
        led = trick[0][1] // 13

        def key(c: int) -> int:
            suit = c // 13
            return 100 + c % 13 if suit == trump else c % 13 if suit == led else -1

        best = max(key(c) for _, c in trick)
        winners = sorted((c for c in legal if key(c) > best), key=key)
        losers = [c for c in legal if key(c) <= best]
        if winners:
            if len(trick) == PLAYERS - 1:
                return winners[0]
            later = [(me + k) % PLAYERS for k in range(1, PLAYERS - len(trick))]
            for c in winners:
                if c // 13 == led and led != trump:
                    beaten = bool(unseen & ABOVE[c]) and any(not void[s] >> led & 1 for s in later)
                    beaten = beaten or any(may_ruff(s, led) for s in later)
                else:  # a trump: only a higher trump beats it
                    beaten = bool(unseen & ABOVE[c]) and any(not void[s] >> trump & 1 for s in later)
                if not beaten:
                    return c
            if led != trump and winners[0] // 13 == trump:
                return winners[0]  # ruff low and hope
        # Cannot (or need not) win: the lowest card, keeping trumps and masters.
        return min(losers or winners, key=lambda c: (c // 13 == trump, master(c), c % 13))

    # --- lottery -------------------------------------------------------------------------------

    def _lottery(self, mine: int, legal: list[int], highs: list[int]) -> int:
        """``highs``: per suit the rank of the highest card laid, -1 when the suit is not open."""

        def value(c: int) -> tuple[int, int]:
            suit, rank = divmod(c, 13)
            high = highs[suit]
            ahead: list[int] = []  # the cards this one opens the way to, in order
            if high < 0:
                ahead = [suit * 13 + r for r in range(rank + 1, 13)] + [suit * 13 + r for r in range(rank)]
                nexts = [r for r in (rank - 1, rank + 1) if 0 <= r < 13]
            elif rank > high:
                ahead = [suit * 13 + r for r in range(rank + 1, 13)]
                nexts = [rank + 1] if rank < 12 else []
            else:
                ahead = [suit * 13 + r for r in range(rank)]
                nexts = [rank - 1] if rank > 0 else []
            beyond = sum(1 for a in ahead if mine >> a & 1)
            gives = sum(1 for r in nexts if not mine >> (suit * 13 + r) & 1)
            return (3 * beyond - 2 * gives, -c)

        playable = [a for a in legal if a != PASS]
        return max(playable, key=value)


def review_thresholds(game: Game) -> tuple[float, float, float]:
    """The review's inaccuracy, mistake and blunder thresholds (:mod:`cardhall.review`), in points of
    the deal value (a trick of deal 1 costs 20, a queen 60)."""
    return (10.0, 25.0, 60.0)


# What a search pays at each kind of decision (see cardhall.bots.rules): neutral. Kierki's decisions are
# nearly all cards played, and no measurement shows the trump choice or the lottery gaining more from a
# search than a card does, so its moves share the tier's time earliest deadline first.
RULES_BOT = KierkiRulesBot
