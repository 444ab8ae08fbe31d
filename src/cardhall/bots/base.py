"""The one protocol every bot follows: observation and legal actions in, an action out.

A bot never sees the true state, only what its seat may know. ``act`` must return one of
``legal_actions``; it may use ``rng`` and should stay within its time budget.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final, Protocol

from cardhall.core import Game, Observation
from cardhall.options import Option

# A decision's weight for the bot tier's scheduler (a rules module's ``DECISION_WEIGHTS``, see
# :mod:`cardhall.bots.rules`) when its search pays as much as the game's other decisions.
NEUTRAL_WEIGHT: Final = 1


class Bot(Protocol):
    @property
    def name(self) -> str: ...

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        """Choose one of ``legal_actions`` for the seat the observation belongs to."""
        ...


class BaseBot:
    """A convenient base: keeps the game and the options; subclasses implement ``act``."""

    name: ClassVar[str]
    option_spec: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, game: Game, **options: Any) -> None:
        self.game = game
        self.options = options

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        raise NotImplementedError
