"""``expert``: the search bot with each determinization's values weighed by how likely the play so far
makes it.

The ``search`` bot (:mod:`cardhall.bots.search`) searches states drawn from the observation with every
consistent hidden deal alike and averages their values. ``expert`` searches many distinct states drawn
the same way (the search's own sampler: the game's opponent model where its rules module gives one,
``game.sample_state`` otherwise) and averages their values weighed by a tempered posterior
(weighted PIMC): the value of an action is ``sum(w_i * v_i)`` over the determinizations ``i``, where
``w_i`` is the likelihood of every action the other seats took this deal if the hidden cards are as in
state ``i`` (:func:`log_likelihood`), raised to the power ``t`` (at most 1) that keeps the weights'
effective sample size at least ``ess`` of the determinizations searched (:func:`tempered`), and mixed
with ``mix`` of uniform. Tempering, because the likelihood multiplies one factor per decision of the
others: untempered, a handful of states carry nearly all the weight and the search fits those few (an
earlier build resampled a small pool by weight and lost to the plain search at the same number of
determinizations: ``benchmarks/bots-expert.md``). A state in which a recorded action is illegal (a card
of a suit its player showed he lacks) gets weight 0 and is not searched; every state searched keeps the
observation's hard facts (voids, cards seen) as the sampler does.

The opponent model is the game's rules bot as a soft likelihood (an epsilon mix): a seat plays the rules
bot's choice from its own observation of the replayed state with probability ``1 - eps + eps/n`` and each
other of its ``n`` legal actions with ``eps/n``. A soft model, because the others are not the rules bot
(people least of all). The replay is the game's :meth:`~cardhall.core.Game.deal_replay` (the sampled state
rewound to the start of the deal in hand and the deal's public actions: Hokm, Kierki, and Hearts from
the first lead on, its passes not weighed). A game that does not rewind (Svara, whose sampler already
deals the bettors' hands from a model of the bets) is searched as ``search`` does, with the expert's
budget: its sampler's model is the inference.

The anchor (the rules move, kept unless another is clearly better) is the search's, with the paired
differences weighed: the weighted mean against ``z`` weighted standard errors over the effective sample
size.

A rules module may also name the game's own expert play, ``expert_policy(game, observation, legal,
rng) -> int``: ``expert`` then plays that instead of searching (gin's, by its own engineer).

Cost: each determinization pays one replay (the rules bot asked once per decision of the others this
deal) on top of its rollouts; where the time goes is in ``timing`` (seconds drawing, weighing, rolling
out), and what the weighing is worth at equal determinizations and against ``hard`` is measured in
``benchmarks/bots-expert.md``.
"""

from __future__ import annotations

import math
import random
import time
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
IMPOSSIBLE = -math.inf


def state_policy(bot: Bot) -> Policy:
    """``bot``'s choice for a seat of a state: its ``act_state`` where it has one (the same choice,
    faster), else its ``act`` on that seat's observation (so the model sees only what the seat saw)."""
    fast: Policy | None = getattr(bot, "act_state", None)
    if fast is not None:
        return fast

    def policy(state: State, seat: int, legal: list[int], rng: random.Random) -> int:
        return bot.act(state.observation(seat, ints=True), legal, rng)

    return policy


def log_likelihood(
    game: Game,
    observation: Observation,
    sampled: State,
    policy: Policy,
    eps: float,
    rng: random.Random,
) -> float:
    """The log of how likely the other seats' actions of the deal in hand are if the hidden cards are as
    in ``sampled``, under ``policy`` mixed with ``eps`` of uniform play: the sum over their decisions of
    ``log((1 - eps) * [action is the policy's] + eps / legal)``; :data:`IMPOSSIBLE` (minus infinity) when
    the replayed deal makes a recorded action illegal (or out of turn); 0 for a game that does not rewind
    (:meth:`Game.deal_replay`)."""
    rewound = game.deal_replay(observation, sampled)
    if rewound is None:
        return 0.0
    state, actions = rewound
    me = observation["seat"]
    logp = 0.0
    for seat, action in actions:
        if state.is_over or seat not in state.to_act:
            return IMPOSSIBLE
        legal = state.legal_actions_unchecked(seat)
        if action not in legal:
            return IMPOSSIBLE
        if seat != me and len(legal) > 1:
            chosen = policy(state, seat, legal, rng)
            p = eps / len(legal) + (1.0 - eps if chosen == action else 0.0)
            if p <= 0.0:
                return IMPOSSIBLE
            logp += math.log(p)
        state.apply_unchecked(seat, action)
    return logp


def likelihood(
    game: Game, observation: Observation, sampled: State, policy: Policy, eps: float, rng: random.Random
) -> float:
    """:func:`log_likelihood` as a probability (0 for an impossible deal, 1 where the game does not
    rewind)."""
    logp = log_likelihood(game, observation, sampled, policy, eps, rng)
    return 0.0 if logp == IMPOSSIBLE else math.exp(logp)


def weigh(
    game: Game,
    observation: Observation,
    samples: list[State],
    policy: Policy,
    eps: float,
    rng: random.Random,
) -> list[float]:
    """The (untempered) posterior weights of ``samples`` (states drawn from ``observation``): their
    likelihoods (:func:`likelihood`) normalised to sum to one. A sample the play rules out gets 0; when
    every one is ruled out, ValueError (there is no distribution to give)."""
    logs = [log_likelihood(game, observation, s, policy, eps, rng) for s in samples]
    if all(x == IMPOSSIBLE for x in logs):
        raise ValueError(f"{game}: every one of {len(samples)} samples contradicts the play so far")
    return tempered(logs, 0.0, 0.0)


def effective_size(weights: list[float]) -> float:
    """Kish's effective sample size of ``weights``: ``(sum w)^2 / sum w^2`` (n for equal weights, 1 when
    one carries everything)."""
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares > 0 else 0.0


def tempered(logs: list[float], ess: float, mix: float) -> list[float]:
    """Weights summing to one from log-likelihoods ``logs``: ``exp(t * log)`` normalised, with ``t`` in
    ``[0, 1]`` the largest whose weights keep an effective sample size (:func:`effective_size`) of at
    least ``ess`` (a share, 0 to 1) of the possible samples (found by bisection; ``t`` is 1 when the
    likelihoods already do), then mixed with ``mix`` (a share) of the uniform weight over the possible
    samples. An impossible sample (:data:`IMPOSSIBLE`) gets 0 whatever the tempering; ValueError when
    every sample is impossible."""
    possible = [i for i, x in enumerate(logs) if x != IMPOSSIBLE]
    if not possible:
        raise ValueError(f"every one of {len(logs)} samples is impossible: no distribution to give")
    top = max(logs[i] for i in possible)
    need = ess * len(possible)

    def at(t: float) -> list[float]:
        raw = [math.exp(t * (x - top)) if x != IMPOSSIBLE else 0.0 for x in logs]
        total = sum(raw)
        return [w / total for w in raw]

    weights = at(1.0)
    if effective_size(weights) < need:
        low, high = 0.0, 1.0  # effective_size(at(low)) >= need > effective_size(at(high))
        for _ in range(20):
            mid = (low + high) / 2
            if effective_size(at(mid)) >= need:
                low = mid
            else:
                high = mid
        weights = at(low)
    if mix > 0.0:
        even = 1.0 / len(possible)
        weights = [
            (1.0 - mix) * w + (mix * even if x != IMPOSSIBLE else 0.0)
            for w, x in zip(weights, logs, strict=True)
        ]
    return weights


def weighted_clearly_better(
    values: list[list[float]], weights: list[float], best: int, anchor: int, z: float = 1.0
) -> bool:
    """Whether candidate ``best`` beats ``anchor`` by more than ``z`` standard errors of the weighted
    paired difference over the determinizations (weights summing to one; the error over their effective
    sample size)."""
    n = effective_size(weights)
    if n < 2:
        return False
    diffs = [row[best] - row[anchor] for row in values]
    mean = sum(w * d for w, d in zip(weights, diffs, strict=True))
    var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) * n / (n - 1)
    return mean > z * math.sqrt(var / n)


class ExpertBot(SearchBot):
    name = "expert"
    option_spec: ClassVar[tuple[Option, ...]] = (
        *SearchBot.option_spec,
        Option(
            "eps", 50, "opponent model: share (in hundredths) of play off the rules bot's choice", None, 1
        ),
        Option(
            "ess",
            50,
            "tempering: the weights keep an effective sample size of this share (hundredths) of the states",
            None,
            0,
        ),
        Option("mix", 0, "share (in hundredths) of uniform weight mixed into the posterior", None, 0),
    )

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.eps = min(int(options.get("eps", 50)), 100) / 100
        self.ess = min(int(options.get("ess", 50)), 100) / 100
        self.mix = min(int(options.get("mix", 0)), 100) / 100
        self.model = state_policy(rules_bot_class(game)(game))
        # A game that does not rewind weighs every sample alike: it is searched as ``search`` does.
        self.rewinds = type(game).deal_replay is not Game.deal_replay
        self.inference = {"draws": 0, "ruled_out": 0, "weighed": 0, "effective": 0.0}
        self.timing = {"sample": 0.0, "weigh": 0.0, "rollouts": 0.0}
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
        if not self.rewinds or len(legal_actions) == 1:
            return super().act(observation, legal_actions, rng)
        default = -1 if self.anchor is None else self.anchor.act(observation, legal_actions, rng)
        candidates = self.candidates(self.game, observation, legal_actions)
        if default >= 0 and default not in candidates:
            candidates = sorted([*candidates, default])
        if len(candidates) == 1:
            return candidates[0]
        start = time.perf_counter()
        deadline = start + self.ms / 1000
        seat: int = observation["seat"]
        values: list[list[float]] = []
        logs: list[float] = []
        steps = draws = 0
        timing, clock = self.timing, time.perf_counter
        while True:
            if self.iterations:
                if len(values) >= self.iterations:
                    break
            elif values and clock() >= deadline:
                break
            t0 = clock()
            sampled = self.sample(observation, rng)
            t1 = clock()
            logp = log_likelihood(self.game, observation, sampled, self.model, self.eps, rng)
            timing["sample"] += t1 - t0
            timing["weigh"] += clock() - t1
            draws += 1
            if logp == IMPOSSIBLE:
                # The sampler keeps the observation's hard facts, so this is rare; past a bound (a
                # sampler that cannot meet the play) the state is searched with the least weight seen.
                if draws <= 4 * max(self.iterations, len(values) + 1):
                    continue
                logp = min(logs, default=0.0)
            t2 = clock()
            row, taken = self.values_in(sampled, seat, candidates, rng)
            steps += taken
            timing["rollouts"] += clock() - t2
            values.append(row)
            logs.append(logp)
        weights = tempered(logs, self.ess, self.mix)
        done = len(values)
        inf = self.inference
        inf["draws"] += draws
        inf["ruled_out"] += draws - done
        inf["weighed"] += done
        inf["effective"] += effective_size(weights)
        st = self.stats
        st["decisions"] += 1
        st["determinizations"] += done
        st["rollouts"] += done * len(candidates) * self.rollouts
        st["actions"] += steps
        st["seconds"] += clock() - start
        return self.choose_weighted(values, weights, candidates, default)

    def choose_weighted(
        self, values: list[list[float]], weights: list[float], candidates: list[int], default: int
    ) -> int:
        """The candidate with the best weighted mean value; with an anchor, only if clearly better than
        it (:func:`weighted_clearly_better`)."""
        totals = [
            sum(w * row[i] for w, row in zip(weights, values, strict=True)) for i in range(len(candidates))
        ]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        if default < 0 or candidates[best] == default:
            return candidates[best]
        anchor = candidates.index(default)
        if weighted_clearly_better(values, weights, best, anchor, self.z):
            return candidates[best]
        return default
