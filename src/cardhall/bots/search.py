"""``search``: one Monte Carlo player for every game that implements ``Game.sample_state``.

Perfect-information Monte Carlo (PIMC) over determinizations: until the budget is spent it samples a full
state from the observation alone (``game.sample_state(observation, rng)``: the seat's own cards and the
public history kept, known voids and seen cards respected, hidden cards dealt at random), then for every
legal action plays ``rollouts`` games on from that state with the ``rules`` or ``random`` policy for every
seat, and keeps the mean value per action. It picks the action with the best mean (ties: the lowest
action). It never sees the true state, only the observation it is given.

What it knows of each game comes from the game's rules module (``bots/rules_<game>.py``, see
:mod:`cardhall.bots.rules`): ``search_candidates`` (a short list where many legal actions are
near-equal; when it names one action, in gin take or draw, a discard when no knock is legal, a
suggestion, that action is played without searching) and ``make_sampler`` (an opponent model for the
states it searches); without them it compares every legal action on states from
``game.sample_state``.

Anchor (``anchor=rules``, the default): the rules player's own choice is the default move, and the search
overrides it only when the best action's advantage over it, paired determinization by determinization,
exceeds one standard error. Rollouts are noisy and a small budget would otherwise often trade a good
heuristic move for the luckiest one; it also makes moves that change nothing (a gin advisor's suggestion)
fall back on the rules player's choice. ``anchor=none`` is plain PIMC.

Budget: ``ms`` (wall-clock per decision, one core; at least one determinization) or ``iterations`` (a fixed
number of determinizations: deterministic for a given RNG, for tests and reproducible tournaments).

Value of a rollout: the seat's score minus the mean score of the other seats when the rollout stops. A
rollout stops at the end of the match, or earlier at the end of the current deal (when the state's
``deals_finished`` changes): a match of many independent deals is judged by the deal in hand. Rollout
players act on their own observations of the sampled state (the ``rules`` policy), so no rollout player
sees hidden cards either.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

from cardhall.bots.base import BaseBot, Bot
from cardhall.bots.rules import rules_bot_class, rules_module
from cardhall.core import Game, Observation, State
from cardhall.errors import InvalidOptionError
from cardhall.options import Option


def _deal_end(state: State) -> Hashable:
    return state.deals_finished


def _every_action(game: Game, observation: Observation, legal_actions: list[int]) -> list[int]:
    return legal_actions


def rollout_value(state: State, seat: int) -> float:
    """The seat's score relative to the mean of the others; in a penalty-point game (the lowest total
    wins) the others' mean relative to the seat's score."""
    scores = state.scores
    others = [v for s, v in enumerate(scores) if s != seat]
    value = float(scores[seat]) - (sum(others) / len(others) if others else 0.0)
    return -value if state.game.lowest_score_wins else value


def clearly_better(values: list[list[float]], best: int, anchor: int, z: float = 1.0) -> bool:
    """Whether candidate ``best`` beats ``anchor`` by more than ``z`` standard errors of the paired
    difference over the determinizations."""
    diffs = [row[best] - row[anchor] for row in values]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n)


class SearchBot(BaseBot):
    name = "search"
    option_spec: ClassVar[tuple[Option, ...]] = (
        Option("ms", 1000, "time budget per decision in milliseconds (when iterations=0)", None, 1),
        Option("iterations", 0, "determinizations per decision; 0 = use the ms budget", None, 0),
        Option("rollout", "rules", "rollout policy for every seat", ("rules", "random")),
        Option("rollouts", 1, "rollouts per action and determinization", None, 1),
        Option(
            "anchor",
            "rules",
            "rules: override the rules move only when clearly better; none",
            ("rules", "none"),
        ),
        Option("z", 10, "standard errors (in tenths) an override must clear: 10 = 1.0", None, 0),
    )

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.ms = int(options.get("ms", 1000))
        self.iterations = int(options.get("iterations", 0))
        self.rollouts = int(options.get("rollouts", 1))
        self.policy: Bot | None = None
        if options.get("rollout", "rules") == "rules":
            self.policy = rules_bot_class(game)(game)
        # A rules bot may offer ``act_state(state, seat, legal, rng)``: the same choice as ``act`` on the
        # seat's observation, read from the state without building the observation (fast rollouts).
        self.fast_policy: Callable[[State, int, list[int], random.Random], int] | None = getattr(
            self.policy, "act_state", None
        )
        self.anchor: Bot | None = None
        if options.get("anchor", "rules") == "rules":
            self.anchor = self.policy or rules_bot_class(game)(game)
        self.z = int(options.get("z", 10)) / 10
        self.horizon = _deal_end
        try:
            knowledge: object = rules_module(game)
        except InvalidOptionError:  # a game without a rules player: search it with the defaults
            knowledge = None
        self.candidates: Callable[[Game, Observation, list[int]], list[int]] = getattr(
            knowledge, "search_candidates", _every_action
        )
        make_sampler = getattr(knowledge, "make_sampler", None)
        self.sample: Callable[[Observation, random.Random], State] = (
            game.sample_state if make_sampler is None else make_sampler(game)
        )
        # Cumulative counters for the speed report.
        self.stats = {"decisions": 0, "determinizations": 0, "rollouts": 0, "actions": 0, "seconds": 0.0}

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        # Rollouts are noisy: comparing fifty bet sizes would pick the luckiest, so compare the game's
        # short list of representative actions.
        default = -1 if self.anchor is None else self.anchor.act(observation, legal_actions, rng)
        candidates = self.candidates(self.game, observation, legal_actions)
        if default >= 0 and default not in candidates:
            candidates = sorted([*candidates, default])
        if len(candidates) == 1:  # the game leaves nothing worth searching
            return candidates[0]
        start = time.perf_counter()
        deadline = start + self.ms / 1000
        seat: int = observation["seat"]
        # values[d][i]: the value of candidate i in determinization d (mean over its rollouts).
        values: list[list[float]] = []
        steps = 0
        while True:
            if self.iterations:
                if len(values) >= self.iterations:
                    break
            elif values and time.perf_counter() >= deadline:
                break
            row, taken = self.values_in(self.sample(observation, rng), seat, candidates, rng)
            steps += taken
            values.append(row)
        done = len(values)
        st = self.stats
        st["decisions"] += 1
        st["determinizations"] += done
        st["rollouts"] += done * len(candidates) * self.rollouts
        st["actions"] += steps
        st["seconds"] += time.perf_counter() - start
        return self.choose(values, candidates, default)

    def evaluate(
        self, observation: Observation, candidates: list[int], rng: random.Random, determinizations: int
    ) -> list[list[float]]:
        """``values[d][i]``: the value (:func:`rollout_value`) of ``candidates[i]`` in determinization
        ``d``, for ``determinizations`` states drawn from ``observation`` alone, as :meth:`act` values
        them, for a caller that wants the values themselves (the review, :mod:`cardhall.review`).

        Unlike :meth:`act` (which this leaves as it was), every candidate of one determinization is
        rolled out with the same rollout randomness (common random numbers: each candidate's rollouts
        start from a copy of one RNG state), so the paired differences measure the actions, not the
        rollout players' dice. A fresh sampler (opponent model) is made for the call, so nothing learnt
        from an earlier observation carries over: the values depend on ``observation``, ``candidates``
        and ``rng`` alone."""
        seat: int = observation["seat"]
        sample = self._fresh_sampler()
        values: list[list[float]] = []
        for _ in range(determinizations):
            sampled = sample(observation, rng)
            dice = random.Random(rng.getrandbits(64))
            row, _ = self.values_in(sampled, seat, candidates, dice, same_dice=True)
            values.append(row)
        return values

    def values_in(
        self, sampled: State, seat: int, candidates: list[int], rng: random.Random, same_dice: bool = False
    ) -> tuple[list[float], int]:
        """Each candidate's mean :func:`rollout_value` for ``seat`` in the determinization ``sampled``
        (which stays as it was), and the actions the rollouts took. ``same_dice``: every candidate's
        rollouts start from the same state of ``rng`` (common random numbers)."""
        stop = self.horizon(sampled)
        start = rng.getstate() if same_dice else None
        row = []
        steps = 0
        for action in candidates:
            if start is not None:
                rng.setstate(start)
            total = 0.0
            for _ in range(self.rollouts):
                state = sampled.clone()
                state.apply_unchecked(seat, action)
                steps += self._rollout(state, stop, rng)
                total += rollout_value(state, seat)
            row.append(total / self.rollouts)
        return row, steps

    def _fresh_sampler(self) -> Callable[[Observation, random.Random], State]:
        """A new sampler of the kind this bot uses (an opponent model may cache what it learnt of the last
        observation; a fresh one starts clean)."""
        try:
            knowledge: object = rules_module(self.game)
        except InvalidOptionError:
            return self.game.sample_state
        make_sampler = getattr(knowledge, "make_sampler", None)
        return self.game.sample_state if make_sampler is None else make_sampler(self.game)

    def choose(self, values: list[list[float]], candidates: list[int], default: int) -> int:
        """The candidate with the best mean value; with an anchor, only if clearly better than it."""
        totals = [sum(row[i] for row in values) for i in range(len(candidates))]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        if default < 0 or candidates[best] == default:
            return candidates[best]
        anchor = candidates.index(default)
        return candidates[best] if clearly_better(values, best, anchor, self.z) else default

    def _rollout(self, state: State, stop: Hashable, rng: random.Random) -> int:
        horizon = self.horizon
        policy = self.policy
        fast = self.fast_policy
        steps = 0
        while not state.is_over and horizon(state) == stop:
            seat = state.to_act[0]
            legal = state.legal_actions_unchecked(seat)
            if policy is None or len(legal) == 1:
                action = legal[rng.randrange(len(legal))]
            elif fast is not None:
                action = fast(state, seat, legal, rng)
            else:
                action = policy.act(state.observation(seat, ints=True), legal, rng)
            state.apply_unchecked(seat, action)
            steps += 1
        return steps
