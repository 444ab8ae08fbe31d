"""Bots by name: ``make_bot("random", game)``. Every bot sees only an observation and the legal actions.

A bot string uses the game-string syntax (``search(ms=500)``); each bot class declares its options.
``rules`` picks the game's own rule-based player (``bots/rules_<game>.py``, by game name) and refuses a game
that has none; ``search`` works for every game that implements ``Game.sample_state``.
"""

from __future__ import annotations

from cardhall.bots.base import BaseBot, Bot
from cardhall.bots.random_bot import RandomBot
from cardhall.bots.rules import RulesBot, rules_bot_class, rules_games
from cardhall.bots.search import SearchBot
from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.options import parse_spec, resolve_options

BOTS: dict[str, type[BaseBot]] = {"random": RandomBot, "rules": RulesBot, "search": SearchBot}


def make_bot(spec: str, game: Game) -> Bot:
    name, raw = parse_spec(spec, "bot")
    factory = BOTS.get(name)
    if factory is None:
        raise InvalidOptionError(f"unknown bot {name!r} (bots: {', '.join(sorted(BOTS))})")
    if factory is RulesBot:
        factory = rules_bot_class(game)
    options = resolve_options(f"bot {name}", factory.option_spec, raw)
    return factory(game, **options)


__all__ = ["BOTS", "BaseBot", "Bot", "RandomBot", "SearchBot", "make_bot", "rules_games"]
