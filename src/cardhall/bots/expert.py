"""``expert``: the search bot over determinizations drawn as the play so far makes them likely.

The ``search`` bot (:mod:`cardhall.bots.search`) draws each state it searches from the observation with
every consistent hidden deal alike. ``expert`` draws them from the posterior under an opponent model,
by sampling-importance-resampling: for each determinization it draws ``pool`` (1) states from the
search's own sampler (the game's opponent model where its rules module gives one, ``game.sample_state``
otherwise), weighs each by the likelihood of every action the other seats took this deal (:func:`weigh`)
and adds it to the decision's pool, and searches one of the pool drawn by weight
(:class:`InferenceSampler`). Everything else (candidates, the rules anchor, rollouts, the budget, the
statistics) is the search bot's: this only swaps its sampler.

The opponent model is the game's rules bot as a soft likelihood (an epsilon mix): a seat plays the rules
bot's choice from its own observation of the replayed state with probability ``1 - eps + eps/n`` and each
other of its ``n`` legal actions with ``eps/n``. A soft model, because the others are not the rules bot
(people least of all): a hard one would throw away every deal in which someone played otherwise. An
action the replayed deal makes illegal (a card of a suit he showed he lacks, one he cannot hold) gives
the deal weight 0. The replay is the game's :meth:`~cardhall.core.Game.deal_replay` (the sampled state
rewound to the start of the deal in hand with the hands it implies, and the deal's public actions:
Hokm, Kierki, and Hearts from the first lead on, its passes not weighed); a game that does not rewind
(gin, where hands change from the stock; Svara, whose sampler already deals the bettors' hands from a
model of the bets) has its samples weighed alike, so there ``expert`` is the search drawing one state
per determinization: its own sampler's model is the inference.

A rules module may also name the game's own expert play, ``expert_policy(game, observation, legal,
rng) -> int``: ``expert`` then plays that instead of searching (gin's, by its own engineer, when it exists).

Cost: each determinization pays ``pool`` samples and replays (a replay asks the rules bot once per
decision of the others this deal) on top of its rollouts, so in a fixed time ``expert`` may search fewer
determinizations than ``search``; a pool drawn afresh for each determinization (several states, one
kept) cost too much, hence the decision's pool that grows with the search. What the weighing is worth
at the same number of determinizations, and against ``hard``, is measured in
``benchmarks/bots-expert.md`` (so far it is not ahead: resampling from a small pool searches few
distinct deals).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from cardhall.bots.base import Bot
from cardhall.bots.rules import rules_bot_class, rules_module
from cardhall.bots.search import SearchBot
from cardhall.core import Game, Observation, State
from cardhall.errors import InvalidOptionError
from cardhall.options import Option

Sampler = Callable[[Observation, random.Random], State]
# A rules bot's choice read from a state (``act_state``) or from the seat's observation of it.
Policy = Callable[[State, int, list[int], random.Random], int]


def state_policy(bot: Bot) -> Policy:
    """``bot``'s choice for a seat of a state: its ``act_state`` where it has one (the same choice,
    faster), else its ``act`` on that seat's observation (so the model sees only what the seat saw)."""
    fast: Policy | None = getattr(bot, "act_state", None)
    if fast is not None:
        return fast

    def policy(state: State, seat: int, legal: list[int], rng: random.Random) -> int:
        return bot.act(state.observation(seat, ints=True), legal, rng)

    return policy


def likelihood(
    game: Game, observation: Observation, sampled: State, policy: Policy, eps: float, rng: random.Random
) -> float:
    """How likely the other seats' actions of the deal in hand are if the hidden cards are as in
    ``sampled``, under ``policy`` mixed with ``eps`` of uniform play: the product over their decisions of
    ``(1 - eps) * [action is the policy's] + eps / legal``; 0 when the replayed deal makes a recorded
    action illegal (or out of turn); 1 for a game that does not rewind (:meth:`Game.deal_replay`)."""
    rewound = game.deal_replay(observation, sampled)
    if rewound is None:
        return 1.0
    state, actions = rewound
    me = observation["seat"]
    p = 1.0
    for seat, action in actions:
        if state.is_over or seat not in state.to_act:
            return 0.0
        legal = state.legal_actions_unchecked(seat)
        if action not in legal:
            return 0.0
        if seat != me and len(legal) > 1:
            chosen = policy(state, seat, legal, rng)
            p *= eps / len(legal) + (1.0 - eps if chosen == action else 0.0)
        state.apply_unchecked(seat, action)
    return p


def weigh(
    game: Game,
    observation: Observation,
    samples: list[State],
    policy: Policy,
    eps: float,
    rng: random.Random,
) -> list[float]:
    """The posterior weights of ``samples`` (states drawn from ``observation``): their likelihoods
    (:func:`likelihood`) normalised to sum to one. A sample the play rules out gets 0; when every one is
    ruled out, ValueError (there is no distribution to give)."""
    raw = [likelihood(game, observation, s, policy, eps, rng) for s in samples]
    total = sum(raw)
    if total <= 0.0:
        raise ValueError(f"{game}: every one of {len(samples)} samples contradicts the play so far")
    return [w / total for w in raw]


class InferenceSampler:
    """A sampler (``(observation, rng) -> State``) drawing from ``base``'s states as the opponent model
    weighs them. Each call draws ``pool`` fresh states from ``base`` and weighs them (:func:`likelihood`);
    the decision's pool keeps every one the play does not rule out, and the call returns one of the
    pool drawn by weight (sampling-importance-resampling over a pool that grows with the search, so a
    determinization costs one draw and one replay, not ``pool``). A new observation (a new object: each
    decision's) starts a new pool. When nothing in the pool is possible it returns ``base``'s own draw
    (which respects everything the observation shows)."""

    def __init__(self, game: Game, base: Sampler, policy: Policy, eps: float, pool: int) -> None:
        self.game = game
        self.base = base
        self.policy = policy
        self.eps = eps
        self.pool = pool
        # A game that does not rewind weighs every sample alike: the pool would be waste.
        self.rewinds = type(game).deal_replay is not Game.deal_replay
        self.stats = {"draws": 0, "ruled_out": 0, "kept_unweighed": 0}
        self._observation: Observation | None = None
        self._states: list[State] = []
        self._weights: list[float] = []

    def __call__(self, observation: Observation, rng: random.Random) -> State:
        if not self.rewinds:
            return self.base(observation, rng)
        if observation is not self._observation:
            self._observation, self._states, self._weights = observation, [], []
        for _ in range(self.pool):
            state = self.base(observation, rng)
            weight = likelihood(self.game, observation, state, self.policy, self.eps, rng)
            self.stats["draws"] += 1
            if weight > 0.0:
                self._states.append(state)
                self._weights.append(weight)
            else:
                self.stats["ruled_out"] += 1
        if not self._states:
            self.stats["kept_unweighed"] += 1
            return self.base(observation, rng)
        return rng.choices(self._states, self._weights)[0]


class ExpertBot(SearchBot):
    name = "expert"
    option_spec: ClassVar[tuple[Option, ...]] = (
        *SearchBot.option_spec,
        Option(
            "pool",
            1,
            "states drawn and weighed per determinization (the decision's pool keeps them)",
            None,
            1,
        ),
        Option(
            "eps", 50, "opponent model: share (in hundredths) of play off the rules bot's choice", None, 1
        ),
    )

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        eps = min(int(options.get("eps", 50)), 100) / 100
        pool = int(options.get("pool", 1))
        model = state_policy(rules_bot_class(game)(game))
        self.inference = InferenceSampler(game, self.sample, model, eps, pool)
        self.sample = self.inference
        try:
            knowledge: object = rules_module(game)
        except InvalidOptionError:
            knowledge = None
        self.expert_policy: Callable[[Game, Observation, list[int], random.Random], int] | None = getattr(
            knowledge, "expert_policy", None
        )

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if self.expert_policy is not None:  # the game's own expert play (its rules module's hook)
            return self.expert_policy(self.game, observation, legal_actions, rng)
        return super().act(observation, legal_actions, rng)

    def _fresh_sampler(self) -> Sampler:
        inference = self.inference
        return InferenceSampler(
            self.game, super()._fresh_sampler(), inference.policy, inference.eps, inference.pool
        )
