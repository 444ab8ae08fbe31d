"""``search``: one Monte Carlo player for every game that implements ``Game.sample_state``.

Perfect-information Monte Carlo (PIMC) over determinizations: until the budget is spent it samples a full
state from the observation alone (``game.sample_state(observation, rng)``: the seat's own cards and the
public history kept, known voids and seen cards respected, hidden cards dealt at random), then for every
legal action plays ``rollouts`` games on from that state with the ``rules`` or ``random`` policy for every
seat, and keeps the mean value per action. It picks the action with the best mean (ties: the lowest
action). It never sees the true state, only the observation it is given.

Budget: ``ms`` (wall-clock per decision, one core; at least one determinization) or ``iterations`` (a fixed
number of determinizations: deterministic for a given RNG, for tests and reproducible tournaments).

Value of a rollout: the seat's score minus the mean score of the other seats when the rollout stops. A
rollout stops at the end of the match, or earlier at the end of the current deal (when the state's
``deals_finished`` changes): a match of many independent deals is judged by the deal in hand. Rollout
players act on their own observations of the sampled state (the ``rules`` policy), so no rollout player
sees hidden cards either.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from typing import Any

from cardhall.bots.base import BaseBot, Bot
from cardhall.bots.rules import rules_bot_class
from cardhall.core import Game, Observation, State
from cardhall.options import Option


def _deal_end(state: State) -> Hashable:
    return state.deals_finished


def rollout_value(state: State, seat: int) -> float:
    """The seat's score relative to the mean of the others; in a penalty-point game (the lowest total
    wins) the others' mean relative to the seat's score."""
    scores = state.scores
    others = [v for s, v in enumerate(scores) if s != seat]
    value = float(scores[seat]) - (sum(others) / len(others) if others else 0.0)
    return -value if state.game.lowest_score_wins else value


class SearchBot(BaseBot):
    name = "search"
    option_spec = (
        Option("ms", 1000, "time budget per decision in milliseconds (when iterations=0)", None, 1),
        Option("iterations", 0, "determinizations per decision; 0 = use the ms budget", None, 0),
        Option("rollout", "rules", "rollout policy for every seat", ("rules", "random")),
        Option("rollouts", 1, "rollouts per action and determinization", None, 1),
    )

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.ms = int(options.get("ms", 1000))
        self.iterations = int(options.get("iterations", 0))
        self.rollouts = int(options.get("rollouts", 1))
        self.policy: Bot | None = None
        if options.get("rollout", "rules") == "rules":
            self.policy = rules_bot_class(game)(game)
        self.horizon = _deal_end
        # Cumulative counters for the speed report.
        self.stats = {"decisions": 0, "determinizations": 0, "rollouts": 0, "actions": 0, "seconds": 0.0}

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        # Rollouts are noisy: comparing fifty bet sizes would pick the luckiest, so compare the game's
        # short list of representative actions.
        legal_actions = self.game.search_candidates(observation, legal_actions)
        start = time.perf_counter()
        deadline = start + self.ms / 1000
        seat: int = observation["seat"]
        totals = [0.0] * len(legal_actions)
        done = 0
        steps = 0
        while True:
            if self.iterations:
                if done >= self.iterations:
                    break
            elif done and time.perf_counter() >= deadline:
                break
            sampled = self.game.sample_state(observation, rng)
            stop = self.horizon(sampled)
            for i, action in enumerate(legal_actions):
                for _ in range(self.rollouts):
                    state = sampled.clone()
                    state.apply_unchecked(seat, action)
                    steps += self._rollout(state, stop, rng)
                    totals[i] += rollout_value(state, seat)
            done += 1
        st = self.stats
        st["decisions"] += 1
        st["determinizations"] += done
        st["rollouts"] += done * len(legal_actions) * self.rollouts
        st["actions"] += steps
        st["seconds"] += time.perf_counter() - start
        best = max(range(len(legal_actions)), key=lambda i: (totals[i], -i))
        return legal_actions[best]

    def _rollout(self, state: State, stop: Hashable, rng: random.Random) -> int:
        horizon = self.horizon
        policy = self.policy
        steps = 0
        while not state.is_over and horizon(state) == stop:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if policy is None or len(legal) == 1:
                action = legal[rng.randrange(len(legal))]
            else:
                action = policy.act(state.observation(seat), legal, rng)
            state.apply_unchecked(seat, action)
            steps += 1
        return steps
