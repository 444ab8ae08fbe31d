"""``rules``: one sensible rule-based player per game, chosen by the game's name.

``RULES_BOTS`` maps a game name to its bot class; a game without one is refused with a clear error. The
other games add their classes here as they get them.
"""

from __future__ import annotations

from cardhall.bots.base import BaseBot
from cardhall.bots.rules_hokm import HokmRulesBot
from cardhall.core import Game
from cardhall.errors import InvalidOptionError

RULES_BOTS: dict[str, type[BaseBot]] = {"hokm": HokmRulesBot}


class RulesBot(BaseBot):
    """Stands for the game's own rules bot in ``BOTS``; :func:`rules_bot_class` picks it."""

    name = "rules"


def rules_bot_class(game: Game) -> type[BaseBot]:
    cls = RULES_BOTS.get(game.name)
    if cls is None:
        have = ", ".join(sorted(RULES_BOTS)) or "none"
        raise InvalidOptionError(f"bot 'rules' has no player for {game.name} yet (rules bots for: {have})")
    return cls
