"""The Svara rules bot: betting by hand value, pot odds and position, a blind bet now and then, and
joining a svara when the fee pays.

It reads only the observation in the bots' form (cards and actions as ints: its own hand value once it
has looked, the bets, the pot, who is still in) and the legal actions. Its habits:

- **Hand strength**: the share of the 4,960 hands its hand beats (ties counted half), raised to the power
  of the opponents still in; every bet or raise an opponent made after looking counts as one more
  opponent (a bettor holds a better hand than a random one).
- **Blind round**: it bets blind (the smallest blind allowed) with a small probability when the blind is
  cheap against its stack (at most 5 %), less often as the blinds double; otherwise it looks.
- **Open round, owing chips**: it calls when its winning chance beats the pot odds (to call / (pot + to
  call)), raises about half the pot with a strong hand (chance 0.65 or more, at most twice a deal so two
  strong bots do not raise for ever), and folds otherwise. After blinds a player who did not bet blind
  must raise or fold: it raises the minimum when its chance beats the odds of that raise.
- **Open round, owing nothing**: it bets about half the pot with a good hand; a player who is not the
  dealer opens more lightly in an ordinary deal (if everybody checks the dealer takes the pot), and more
  lightly still the fewer opponents are left to act after it (position). The dealer checks behind.
- **All in**: when a call would take its whole stack it goes all in only if the chance beats the odds.
- **Svara**: it joins when its share of the pot after joining (pot + fee over the players then in) is at
  least the fee and the fee is at most a third of its stack.

What the search bot knows of Svara is here too: :func:`search_candidates` (a short list of bet sizes)
and :func:`make_sampler`, its opponent model: in the open round an opponent who bet, raised or called
after looking is dealt a hand drawn with chance growing with its strength (strength ** (2 per bet, raise
or all in + 1 per call)), what his betting says, read from the public actions only; the other hidden
hands are dealt at random by ``Svara.sample_state``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardhall.bots.base import BaseBot
from cardhall.cards import cards_of
from cardhall.core import Game, Observation, State
from cardhall.games.svara.hands import DECK_MASK, STRENGTH
from cardhall.games.svara.rules import (
    ALL_IN,
    BIT,
    BLIND_BASE,
    CALL,
    CHECK,
    FOLD,
    JOIN,
    LOOK,
    OPEN,
    PASS,
    Svara,
)

BLIND_CHANCE = 0.2  # the first blind; halved for each blind already on the table
STRONG = 0.65  # winning chance for a raise
MAX_RAISES = 2  # own raises per deal


class SvaraRulesBot(BaseBot):
    name = "rules"

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        assert isinstance(game, Svara)
        self.svara = game
        self.strength = STRENGTH[str(game.option("joker"))]

    def act_state(self, state: State, seat: int, legal_actions: list[int], rng: random.Random) -> int:
        """The same choice as :meth:`act` on the seat's observation (the search's rollouts call this)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.act(state.observation(seat, ints=True), legal_actions, rng)

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        o = observation
        phase = o["phase"]
        if phase == "svara join":
            return self._join(o, legal_actions)
        if phase == "blind":
            return self._blind(o, legal_actions, rng)
        return self._bet(o, legal_actions)

    # --- pieces --------------------------------------------------------------------------------

    def _join(self, o: Observation, legal: list[int]) -> int:
        me = o["seat"]
        fee = o["svara_fee"] or 0
        players = len(o["svara_players"]) + len(o["joined"]) + 1
        pays = (o["pot"] + fee) / players >= fee and fee * 3 <= o["stacks"][me]
        return JOIN if pays and JOIN in legal else PASS

    def _blind(self, o: Observation, legal: list[int], rng: random.Random) -> int:
        blinds = [a for a in legal if a >= BLIND_BASE]
        if not blinds:
            return LOOK
        stack = o["stacks"][o["seat"]]
        cheapest = blinds[0]
        amount = (cheapest - BLIND_BASE + 1) * o["ante"]
        chance = BLIND_CHANCE / (2 ** len(o["blinds"]))
        if amount * 20 <= stack and rng.random() < chance:
            return cheapest
        return LOOK

    def chance(self, o: Observation) -> float:
        """The chance that the hand beats every opponent still in."""
        me = o["seat"]
        value = o["hand_value"]
        base = self.strength[value] if value is not None else 0.5
        in_deal, folded = o["in_deal"], o["folded"]
        live = [s for s in range(len(in_deal)) if s != me and in_deal[s] and not folded[s]]
        aggressors = 0
        opened_at = 0
        actions = o["actions"]
        for i, a in enumerate(actions):
            if a["action"] == LOOK:
                opened_at = i
        bet_base = self.svara.bet_base
        for a in actions[opened_at:]:
            s = a["seat"]
            action = a["action"]
            if s != me and not folded[s] and (action >= bet_base or action == ALL_IN):
                aggressors += 1
        return float(base ** (len(live) + min(aggressors, 3)))

    def _bet(self, o: Observation, legal: list[int]) -> int:
        game = self.svara
        me = o["seat"]
        stack = o["stacks"][me]
        pot = o["pot"]
        to_call = o["current_bet"] - o["bets"][me]
        p = self.chance(o)
        bet_base = game.bet_base
        my_raises = sum(1 for a in o["actions"] if a["seat"] == me and a["action"] >= bet_base)
        raises = [a for a in legal if a >= BLIND_BASE]
        if to_call <= 0:
            # Owing nothing: bet for value, or open so the dealer does not take the pot unchallenged.
            live = sum(
                1 for s, (i, f) in enumerate(zip(o["in_deal"], o["folded"], strict=True)) if i and not f
            )
            behind = sum(1 for s, r in enumerate(o["to_respond"]) if r and s != me)
            want = 0.55
            if o["svara"] == 0 and o["dealer"] != me and not o["blinds"] and o["current_bet"] == 0:
                want = 0.3 + 0.1 * behind / max(1, live - 1)
            if p >= want and raises and my_raises < MAX_RAISES:
                return sized(game, raises, pot // 2)
            return CHECK if CHECK in legal else legal[0]
        cost = to_call
        forced = CALL not in legal and to_call < stack
        if forced:
            cost = to_call + o["min_raise"]
        odds = cost / (pot + cost)
        if p < odds:
            return FOLD if FOLD in legal else legal[0]
        if forced:
            return raises[0] if raises else ALL_IN
        if p >= STRONG and raises and my_raises < MAX_RAISES:
            return sized(game, raises, (pot + to_call) // 2)
        return CALL if CALL in legal else ALL_IN


def sized(game: Svara, amounts: list[int], chips: int) -> int:
    """The legal bet or raise nearest ``chips`` (the legal amount actions are consecutive)."""
    lo, hi = amounts[0], amounts[-1]
    base = game.raise_base if lo >= game.raise_base else game.bet_base
    return max(lo, min(hi, base + max(1, chips // game.ante) - 1))


def search_candidates(game: Game, observation: Observation, legal_actions: list[int]) -> list[int]:
    """Every simple action, and of each amount family (blind, bet, raise) the smallest, the largest and
    about a doubling apart in between: a search compares sizes that differ, not fifty neighbours."""
    assert isinstance(game, Svara)
    units = game.units
    out = [a for a in legal_actions if a < BLIND_BASE]
    families: dict[int, list[int]] = {}
    for a in legal_actions:
        if a >= BLIND_BASE:
            families.setdefault((a - BLIND_BASE) // units, []).append(a)
    for amounts in families.values():
        picked = {amounts[0], amounts[-1]}
        sizes = [(a - BLIND_BASE) % units + 1 for a in amounts]
        target = sizes[0] * 2
        for a, u in zip(amounts, sizes, strict=True):
            if u >= target:
                picked.add(a)
                target = u * 2
        out.extend(sorted(picked))
    return sorted(out)


def make_sampler(game: Game) -> Callable[[Observation, random.Random], State]:
    """The search bot's states: ``Svara.sample_state`` with the opponents who bet or called in the open
    round dealt stronger hands (see the module's docstring)."""
    assert isinstance(game, Svara)
    strength = STRENGTH[str(game.option("joker"))]
    values = game.values
    bet_base = game.bet_base

    def signals(o: Observation) -> dict[int, int]:
        """Per opponent, how much his betting since the players looked says about his hand: 2 for
        each bet, raise or all in, 1 for each call."""
        seat = o["seat"]
        actions = o["actions"]
        start = 0
        for i, a in enumerate(actions):
            if a["action"] == LOOK:
                start = i
        out: dict[int, int] = {}
        for a in actions[start:]:
            s = a["seat"]
            action = a["action"]
            if s != seat and (action >= bet_base or action in (ALL_IN, CALL)):
                out[s] = out.get(s, 0) + (1 if action == CALL else 2)
        return out

    def weighted_hand(pool: int, power: int, rng: random.Random) -> int:
        """Three cards of ``pool`` drawn with chance growing with the hand's strength ** ``power``
        (rejection sampling, at most 40 draws; then the strongest hand drawn)."""
        cards = cards_of(pool)
        best, best_w = 0, -1.0
        for _ in range(40):
            a, b, c = rng.sample(cards, 3)
            hand = BIT[a] | BIT[b] | BIT[c]
            w = strength[values[hand]] ** power
            if rng.random() < w:
                return hand
            if w > best_w:
                best, best_w = hand, w
        return best

    def bettors(o: Observation, blind: list[int], known: int, rng: random.Random) -> dict[int, int]:
        """Hands for the opponents whose betting in the open round says something."""
        out: dict[int, int] = {}
        if o["phase"] != OPEN:
            return out
        for s, power in signals(o).items():
            if s in blind:
                out[s] = weighted_hand(DECK_MASK & ~known, power, rng)
                known |= out[s]
        return out

    def sample(observation: Observation, rng: random.Random) -> State:
        return game.sample_state(observation, rng, bettors)

    return sample


def review_thresholds(game: Game) -> tuple[float, float, float]:
    """The review's inaccuracy, mistake and blunder thresholds (:mod:`cardhall.review`): 2, 6 and 20
    antes, as Svara's points are chips and a table's stakes are its ante."""
    ante = float(game.option("ante"))
    return (2.0 * ante, 6.0 * ante, 20.0 * ante)


# What a search pays at each kind of decision (the game's phases; see cardhall.bots.rules): neutral,
# since no measurement shows one kind gaining more from a search than another.
RULES_BOT = SvaraRulesBot
