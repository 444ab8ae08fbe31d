"""The games by name, and :func:`load_game` for game strings such as ``hearts(players=8)``.

Every module in :mod:`cardhall.games` is imported once; each :class:`~cardhall.core.Game` subclass it
defines with a ``name`` is registered. A new game needs no edit here.
"""

from __future__ import annotations

import importlib
import pkgutil

from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.options import parse_spec

_GAMES: dict[str, type[Game]] = {}


def _discover() -> dict[str, type[Game]]:
    if not _GAMES:
        import cardhall.games as package

        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for value in vars(module).values():
                if (
                    isinstance(value, type)
                    and issubclass(value, Game)
                    and value.__module__ == module.__name__
                    and "name" in vars(value)
                ):
                    _GAMES[value.name] = value
    return _GAMES


def game_classes() -> dict[str, type[Game]]:
    """Every registered game class by name, sorted by name."""
    return dict(sorted(_discover().items()))


def load_game(text: str | Game) -> Game:
    """The game a game string names, with its options checked."""
    if isinstance(text, Game):
        return text
    name, raw = parse_spec(text, "game")
    games = _discover()
    if name not in games:
        raise InvalidOptionError(f"unknown game {name!r} (games: {', '.join(sorted(games))})")
    return games[name](**raw)
