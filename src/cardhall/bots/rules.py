"""``rules``: one sensible rule-based player per game, chosen by the game's name.

A game's rule-based player lives in ``cardhall.bots.rules_<game name>`` and is named there by a module
attribute ``RULES_BOT``; it is found by that convention, so a new game's bot needs no edit here. A game
without one is refused with a clear error.
"""

from __future__ import annotations

import importlib
import pkgutil

import cardhall.bots as bots_package
from cardhall.bots.base import BaseBot
from cardhall.core import Game
from cardhall.errors import InvalidOptionError

RULES_BOTS: dict[str, type[BaseBot]] = {}


def _discover() -> dict[str, type[BaseBot]]:
    if not RULES_BOTS:
        for info in pkgutil.iter_modules(bots_package.__path__):
            if info.name.startswith("rules_"):
                module = importlib.import_module(f"{bots_package.__name__}.{info.name}")
                RULES_BOTS[info.name.removeprefix("rules_")] = module.RULES_BOT
    return RULES_BOTS


class RulesBot(BaseBot):
    """Stands for the game's own rules bot in ``BOTS``; :func:`rules_bot_class` picks it."""

    name = "rules"


def rules_bot_class(game: Game) -> type[BaseBot]:
    cls = _discover().get(game.name)
    if cls is None:
        have = ", ".join(sorted(RULES_BOTS)) or "none"
        raise InvalidOptionError(f"bot 'rules' has no player for {game.name} yet (rules bots for: {have})")
    return cls
