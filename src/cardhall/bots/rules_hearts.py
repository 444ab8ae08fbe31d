"""``rules`` for Hearts (Cancellation Hearts with two decks and ordinary one-deck Hearts), and what the
search bot knows of Hearts (:func:`search_candidates`).

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
- **Rollouts**: ``act_state`` makes the same choice straight from a state (what the seat's observation
  shows, without building it) for the search bot's rollouts. Both read cards as bitmasks of faces: the
  faces held (``hand1``) and held twice (``hand2``), likewise the faces seen played this hand.
"""

from __future__ import annotations

import random

from cardhall.bots.base import BaseBot
from cardhall.cards import ACE, HEARTS, KING, QUEEN, SPADES
from cardhall.core import Game, Observation
from cardhall.games.hearts.rules import FACE_MASK, HEARTS2, MOON_MINUS, MOON_PLUS, PASS_BASE, QS2, HeartsState

QS = SPADES * 13 + QUEEN
KS = SPADES * 13 + KING
AS = SPADES * 13 + ACE
PASS_CANDIDATES = 5  # pass actions the search bot compares


def points(face: int) -> int:
    return 13 if face == QS else (1 if face // 13 == HEARTS else 0)


SUIT = tuple(c // 13 for c in range(52))
RANK = tuple(c % 13 for c in range(52))
POINTS = tuple(points(c) for c in range(52))
BIT = tuple(1 << c for c in range(52))
SUIT_BITS = tuple(0x1FFF << 13 * s for s in range(4))
# The faces of c's suit below it, and above it.
LOWER = tuple(((1 << c % 13) - 1) << 13 * (c // 13) for c in range(52))
HIGHER = tuple(SUIT_BITS[c // 13] & ~LOWER[c] & ~(1 << c) for c in range(52))
HEART_BITS = SUIT_BITS[HEARTS]
LOW_SPADES = SUIT_BITS[SPADES] & ((1 << QS) - 1)  # 2♠ .. J♠
HIGH_SPADES = BIT[QS] | BIT[KS] | BIT[AS]
POINTS2 = HEARTS2 | QS2  # the point cards of both decks (physical cards)


def pass_order(hand: list[int], legal: list[int]) -> list[int]:
    """The pass actions of ``legal``, most dangerous card first (the rules bot passes the first; the
    search bot compares the first few). ``hand`` lists the faces held, a face held twice twice.

    Q♠ unless guarded by four lower spades per copy; A♠/K♠ when the spades are short (they catch the
    Q♠); high hearts; then high cards, the more so in short suits (to make a void); low cards last.
    """
    lengths = [0, 0, 0, 0]
    for c in hand:
        lengths[c // 13] += 1
    low_spades = sum(1 for c in hand if c // 13 == SPADES and c % 13 < QUEEN)
    queens = hand.count(QS)

    def danger(action: int) -> tuple[float, int]:
        c = action - PASS_BASE
        suit, rank = divmod(c, 13)
        if c == QS:
            value = 100.0 if low_spades < 4 * queens else 5.0
        elif suit == SPADES and rank > QUEEN:
            value = 60.0 + rank if low_spades < 3 else rank - 4.0
        elif suit == HEARTS:
            value = 20.0 + rank if rank >= 9 else rank - 2.0
        else:
            value = rank + (6.0 if lengths[suit] <= 3 and rank >= 7 else 0.0)
        return value, c

    return sorted(legal, key=danger, reverse=True)


def pass_choice(hand1: int, hand2: int, legal: list[int]) -> int:
    """``pass_order(hand, legal)[0]`` from the masks of the faces held once or more (``hand1``) and
    twice (``hand2``), without sorting: the rules bot's pass."""
    low_spades = (hand1 & LOW_SPADES).bit_count() + (hand2 & LOW_SPADES).bit_count()
    queens = (hand1 >> QS & 1) + (hand2 >> QS & 1)
    best = best_value = -1000
    for action in legal:
        c = action - PASS_BASE
        suit = SUIT[c]
        rank = RANK[c]
        if c == QS:
            value = 100 if low_spades < 4 * queens else 5
        elif suit == SPADES and rank > QUEEN:
            value = 60 + rank if low_spades < 3 else rank - 4
        elif suit == HEARTS:
            value = 20 + rank if rank >= 9 else rank - 2
        elif rank >= 7 and (hand1 & SUIT_BITS[suit]).bit_count() + (hand2 & SUIT_BITS[suit]).bit_count() <= 3:
            value = rank + 6
        else:
            value = rank
        if value > best_value or (value == best_value and action > best):
            best, best_value = action, value
    return best


def search_candidates(game: Game, observation: Observation, legal: list[int]) -> list[int]:
    """What the search bot compares. Passing: the ``PASS_CANDIDATES`` most dangerous cards (by
    :func:`pass_order`), since sixteen near-equal passes would each get too few rollouts. Playing: one
    card of each run of equivalent cards (same suit, every face between them already played, no copy of
    either still out, no Q♠ among them), the lowest of the run."""
    if len(legal) <= 2:
        return legal
    phase = observation["phase"]
    if phase == "pass":
        return sorted(pass_order(observation["hand"], legal)[:PASS_CANDIDATES])
    if phase != "play":
        return legal
    gone = [0] * 52  # copies seen played or held by the seat
    for t in observation["tricks"]:
        for p in t["cards"]:
            gone[p["card"]] += 1
    for p in observation["trick"]:
        gone[p["card"]] += 1
    held = [0] * 52
    for c in observation["hand"]:
        held[c] += 1
    decks = int(game.option("decks"))
    out: list[int] = []
    for a in legal:
        if out:
            prev = out[-1]
            if (
                a // 13 == prev // 13
                and QS not in (a, prev)
                and held[a] == 1
                and held[prev] == 1
                and gone[a] + 1 == decks
                and gone[prev] + 1 == decks
                and all(gone[f] + held[f] == decks for f in range(prev + 1, a))
            ):
                continue  # same as prev: nothing between them is left to play
        out.append(a)
    return out


class HeartsRulesBot(BaseBot):
    name = "rules"

    def __init__(self, game: Game, **options: object) -> None:
        super().__init__(game, **options)
        self.decks = int(game.option("decks"))
        self.moon_value = int(game.option("moon_value"))

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        o = observation
        phase = o["phase"]
        if phase != "play" and phase != "pass":
            return self._moon(o["seat"], o["scores"], legal_actions)
        me: int = o["seat"]
        hand1 = hand2 = 0
        for c in o["hand"]:
            bit = BIT[c]
            if hand1 & bit:
                hand2 |= bit
            hand1 |= bit
        if phase == "pass":
            return pass_choice(hand1, hand2, legal_actions)
        played1 = played2 = 0
        pending = 0  # points of the set-aside tricks since the last won trick
        others_void = 0  # a bit per suit some other seat has shown it lacks
        for t in o["tricks"]:
            cards = t["cards"]
            led = SUIT[cards[0]["card"]]
            trick_points = 0
            for p in cards:
                c = p["card"]
                bit = BIT[c]
                if played1 & bit:
                    played2 |= bit
                played1 |= bit
                trick_points += POINTS[c]
                if SUIT[c] != led and p["seat"] != me:
                    others_void |= 1 << led
            pending = pending + trick_points if t["winner"] is None else 0
        trick: list[tuple[int, int]] = []
        for p in o["trick"]:
            c = p["card"]
            bit = BIT[c]
            if played1 & bit:
                played2 |= bit
            played1 |= bit
            trick.append((p["seat"], c))
        taken: list[int] = o["trick_points"]
        threat = self._threat(me, taken) if sum(taken) >= 13 * self.decks else -1
        return self._play(
            me, len(taken), hand1, hand2, played1, played2, trick, threat, pending, others_void,
            legal_actions,
        )  # fmt: skip

    def act_state(self, state: HeartsState, seat: int, legal: list[int], rng: random.Random) -> int:
        """The same choice as ``act(state.observation(seat, ints=True), legal, rng)``, read straight
        from the state for fast rollouts; it reads only what the seat's observation shows (its own
        hand, the cards played this hand and by whom, the points taken, the scores), never a hidden
        card."""
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        h = state.hands[seat]
        lo = h & FACE_MASK
        hi = h >> 52
        if phase != "play":
            if phase == "pass":
                return pass_choice(lo | hi, lo & hi, legal)
            return self._moon(seat, state.scores_, legal)
        won = 0
        for t in state.taken:
            won |= t
        aside = state.set_aside
        played = won | aside | state.trick_mask | state.uncollected
        p_lo = played & FACE_MASK
        p_hi = played >> 52
        threat = -1
        if (won & HEARTS2).bit_count() + 13 * (won & QS2).bit_count() >= 13 * self.decks:
            for s, t in enumerate(state.taken):  # the one seat that took points, if it is one
                if t & POINTS2:
                    if threat >= 0:
                        threat = -1
                        break
                    threat = s
            else:
                if threat == seat:
                    threat = -1
        pending = (aside & HEARTS2).bit_count() + 13 * (aside & QS2).bit_count() if aside else 0
        trick = state.trick
        others_void = 0  # when leading: from the finished tricks
        if not trick:
            for _, cards, _ in state.tricks:
                led = SUIT[cards[0][1]]
                if not others_void >> led & 1:
                    for s, c in cards:
                        if SUIT[c] != led and s != seat:
                            others_void |= 1 << led
                            break
        return self._play(
            seat, state.n, lo | hi, lo & hi, p_lo | p_hi, p_lo & p_hi, trick, threat, pending,
            others_void, legal,
        )  # fmt: skip

    @staticmethod
    def _threat(me: int, taken: list[int]) -> int:
        """The one other seat holding every point taken so far (called when they are many), or -1."""
        leaders = [s for s, v in enumerate(taken) if v]
        if len(leaders) == 1 and leaders[0] != me:
            return leaders[0]
        return -1

    # --- the moon choice ------------------------------------------------------------------------

    def _moon(self, me: int, scores: list[int], legal: list[int]) -> int:
        value = self.moon_value
        plus = [v if s == me else v + value for s, v in enumerate(scores)]
        others = min(v for s, v in enumerate(plus) if s != me)
        if plus[me] < others:
            return MOON_PLUS if MOON_PLUS in legal else legal[0]
        return MOON_MINUS if MOON_MINUS in legal else legal[0]

    # --- play ----------------------------------------------------------------------------------

    def _play(
        self,
        me: int,
        n: int,
        hand1: int,
        hand2: int,
        played1: int,
        played2: int,
        trick: list[tuple[int, int]],
        threat: int,
        pending: int,
        others_void: int,
        legal: list[int],
    ) -> int:
        """The play of seat ``me`` of ``n``: ``hand1``/``hand2`` the faces it holds / holds twice,
        ``played1``/``played2`` the faces played this hand once or more / twice (the trick on the table
        included), ``trick`` the trick on the table, ``threat`` the seat that may be shooting the moon
        (-1: none), ``pending`` the points of the set-aside tricks waiting, ``others_void`` a bit per
        suit in which another seat has shown a void (read when leading)."""
        # Faces with at least one copy out (not held, not played), and with two.
        if self.decks == 1:
            out1 = FACE_MASK & ~(hand1 | played1)
            out2 = 0
        else:
            out1 = FACE_MASK & ~(hand2 | played2 | (hand1 & played1))
            out2 = FACE_MASK & ~(hand1 | played1)
        queens_out = out1 >> QS & 1 == 1
        if not trick:
            return self._lead(hand1, legal, out1, out2, others_void, queens_out)
        led = SUIT[trick[0][1]]
        suit = SUIT_BITS[led]
        # The faces of the suit led in the trick, those played twice (cancelled), and the top of the rest.
        seen = dup = 0
        stake = pending
        for _, c in trick:
            stake += POINTS[c]
            bit = BIT[c]
            if bit & suit:
                if seen & bit:
                    dup |= bit
                seen |= bit
        top = (seen & ~dup).bit_length() - 1  # -1: nothing alive
        winner = -1
        if top >= 0:
            for s, c in trick:
                if c == top:
                    winner = s
                    break
        if SUIT[legal[0]] != led:
            return self._discard(hand1, hand2, legal, queens_out, threat, winner)
        # A card wins (for now) unless its twin is in the trick (it cancels) or a higher card is alive.
        ducks = [c for c in legal if seen >> c & 1 or c < top]
        if threat >= 0 and stake and winner == threat and len(ducks) < len(legal):
            return next(c for c in legal if not (seen >> c & 1 or c < top))  # stop the moon
        if ducks:
            return QS if QS in ducks else ducks[-1]
        # Every card wins for now.
        keep = [c for c in legal if c != QS] or legal
        if len(trick) == n - 1 or not (stake or (led == SPADES and queens_out)):
            return keep[-1]
        return keep[0]

    def _discard(
        self, hand1: int, hand2: int, legal: list[int], queens_out: bool, threat: int, winner: int
    ) -> int:
        if not (threat >= 0 and winner in (threat, -1)):
            if QS in legal:
                return QS
            if queens_out:
                if AS in legal:
                    return AS
                if KS in legal:
                    return KS
            hearts = [c for c in legal if SUIT[c] == HEARTS]
            if hearts:
                return hearts[-1]
        else:  # feeding the threat: no points if it can help it
            safe = [c for c in legal if not POINTS[c]]
            if safe:
                legal = safe
        lengths = [(hand1 & SUIT_BITS[s]).bit_count() + (hand2 & SUIT_BITS[s]).bit_count() for s in range(4)]
        best = legal[0]
        key = RANK[best] - 2 * lengths[SUIT[best]]
        for c in legal:
            k = RANK[c] - 2 * lengths[SUIT[c]]
            if k > key or (k == key and RANK[c] > RANK[best]):
                best, key = c, k
        return best

    def _lead(
        self, hand1: int, legal: list[int], out1: int, out2: int, others_void: int, queens_out: bool
    ) -> int:
        hold_high_spade = hand1 & HIGH_SPADES != 0
        hold_queen = hand1 >> QS & 1 == 1
        best = -1
        best_cost = 0
        for c in legal:
            suit = SUIT[c]
            low = LOWER[c]
            lower = (out1 & low).bit_count() + (out2 & low).bit_count()
            high = HIGHER[c]
            higher = (out1 & high).bit_count() + (out2 & high).bit_count()
            value = RANK[c]
            if higher == 0:
                value += 50 if lower > 0 else 40  # it wins if anyone follows
            else:
                value -= higher if higher < 6 else 6
            if others_void >> suit & 1:
                value += 12
            if c == QS:
                value += 60
            elif suit == SPADES:
                if c in (KS, AS) and queens_out:
                    value += 50
                elif not hold_high_spade and queens_out:
                    value -= 4  # smoke out the queen
                elif hold_queen:
                    value += 8
            elif suit == HEARTS:
                value += 2
            if best < 0 or value < best_cost:  # ties: the lowest card (legal is ascending)
                best, best_cost = c, value
        return best


def review_thresholds(game: Game) -> tuple[float, float, float]:
    """The review's inaccuracy, mistake and blunder thresholds (:mod:`cardhall.review`), in points of
    the deal value."""
    return (1.5, 4.0, 10.0)


# What a search pays at each kind of decision (the game's phases; see cardhall.bots.rules): neutral,
# since no measurement shows one kind gaining more from a search than another.
RULES_BOT = HeartsRulesBot
