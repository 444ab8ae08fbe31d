"""Helpers shared by the tests: loops with a step bound (:func:`playing`, :func:`bounded`,
:func:`steps`, :data:`MAX_STEPS`), states of seeded random play, and a bot's choice as a label."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Protocol

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.core import State

# The most steps a test loop may take: far more than any match a test plays needs (the longest, six
# hands of three-hand gin or a whole Kierki, take under 1,000 actions), few enough that a match that
# never ends fails in seconds, in bounded memory.
MAX_STEPS = 10_000


class Match(Protocol):
    """A state or a table: what :func:`playing` loops over."""

    @property
    def is_over(self) -> bool: ...
    @property
    def seed(self) -> int: ...
    @property
    def game(self) -> cardhall.Game: ...


def bounded(going: Callable[[], object], what: str = "", limit: int = MAX_STEPS) -> Iterator[int]:
    """``for step in bounded(lambda: state.phase == "play", "hearts seed 3"):`` loops like ``while
    state.phase == "play":``, counting the steps from 0, but for at most ``limit`` steps: one more fails
    the test with a message naming ``what`` and where the loop is, so a rule bug that never ends a match
    fails instead of running, and growing, for ever."""
    return _bounded(going, what, limit, sys._getframe(1))


def playing(match: Match, what: str = "", limit: int = MAX_STEPS) -> Iterator[int]:
    """``for step in playing(state):`` is ``while not state.is_over:`` with the bound of :func:`bounded`
    (``state`` a State or a Table)."""
    return _bounded(
        lambda: not match.is_over, what or f"{match.game} seed {match.seed}", limit, sys._getframe(1)
    )


def steps(what: str = "", limit: int = MAX_STEPS) -> Iterator[int]:
    """``for step in steps("gin seed 3"):`` is ``while True:`` (leave it with ``break``) with the bound of
    :func:`bounded`."""
    return _bounded(lambda: True, what, limit, sys._getframe(1))


def _bounded(going: Callable[[], object], what: str, limit: int, caller: FrameType) -> Iterator[int]:
    where = f"{caller.f_code.co_filename.rsplit('/', 1)[-1]}:{caller.f_lineno}"
    for step in range(limit):
        if not going():
            return
        yield step
    pytest.fail(f"{what or 'a loop'} ({where}): still going after {limit} steps; does the match never end?")


def random_states(game_string: str, seeds: range) -> list[State]:
    """Every state (as a copy) of one seeded random match per seed, the final one included."""
    game = cardhall.load_game(game_string)
    out = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in playing(state):
            out.append(state.clone())
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        out.append(state.clone())
    return out


def bot_label(state: State, spec: str = "rules", seed: int = 0) -> str:
    """The label of the action the bot ``spec`` chooses for the first seat to act (checked legal)."""
    seat = state.to_act[0]
    bot = make_bot(spec, state.game)
    action = bot.act(state.observation(seat, ints=True), state.legal_actions(seat), random.Random(seed))
    assert action in state.legal_actions(seat)
    return state.game.action_label(action)
