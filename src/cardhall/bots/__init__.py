"""Bots by name: ``make_bot("random", game)``. Every bot sees only an observation and the legal actions.

A bot string uses the game-string syntax (``search(ms=500)``); each bot class declares its options.
``rules`` picks the game's own rule-based player (``bots/rules_<game>.py``, by game name) and refuses a game
that has none; ``search`` works for every game that implements ``Game.sample_state``.

A bot may also be named by its level, for people who do not know the bots (the lobby's choice, and
``--bots hard`` on the command line): ``easy`` is ``random``, ``normal`` is ``rules``, ``hard`` is
``search(ms=300)`` (strong, and quick enough to play against), ``expert`` is ``expert(ms=500)`` (the search
over deals weighed by how likely the others' play makes them: :mod:`cardhall.bots.expert`). A level takes no
options: a player who wants them names the bot itself (``expert(iterations=50)`` is the bot, with its own
defaults).
"""

from __future__ import annotations

from typing import Final

from cardhall.bots.base import BaseBot, Bot
from cardhall.bots.expert import ExpertBot
from cardhall.bots.random_bot import RandomBot
from cardhall.bots.rules import RulesBot, rules_bot_class, rules_games
from cardhall.bots.search import SearchBot
from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.options import parse_spec, resolve_options

BOTS: dict[str, type[BaseBot]] = {
    "random": RandomBot,
    "rules": RulesBot,
    "search": SearchBot,
    "expert": ExpertBot,
}
# The levels people choose from, easiest first, and the bot each one names.
BOT_LEVELS: Final = {
    "easy": "random",
    "normal": "rules",
    "hard": "search(ms=300)",
    "expert": "expert(ms=500)",
}


def resolve_level(spec: str) -> str:
    """The bot string a level names (``"hard"`` -> ``"search(ms=300)"``); any other bot string as given."""
    name, raw = parse_spec(spec, "bot")
    if name not in BOT_LEVELS or (raw and name in BOTS):  # "expert(iterations=9)": the bot, not the level
        return spec
    if raw:
        raise InvalidOptionError(
            f"bot level {name!r} takes no options (it is {BOT_LEVELS[name]}: name that bot with yours)"
        )
    return BOT_LEVELS[name]


def make_bot(spec: str, game: Game) -> Bot:
    """The bot a bot string (``"search(ms=500)"``) or a level (``"hard"``) names, for ``game``."""
    name, raw = parse_spec(resolve_level(spec), "bot")
    factory = BOTS.get(name)
    if factory is None:
        raise InvalidOptionError(
            f"unknown bot {name!r} (bots: {', '.join(sorted(BOTS))}; levels: {', '.join(BOT_LEVELS)})"
        )
    if factory is RulesBot:
        factory = rules_bot_class(game)
    options = resolve_options(f"bot {name}", factory.option_spec, raw)
    return factory(game, **options)


__all__ = [
    "BOTS",
    "BOT_LEVELS",
    "BaseBot",
    "Bot",
    "ExpertBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
    "resolve_level",
    "rules_games",
]
