"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

import random

from cardhall.bots.base import BaseBot
from cardhall.core import Observation


class RandomBot(BaseBot):
    name = "random"

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        return legal_actions[rng.randrange(len(legal_actions))]
