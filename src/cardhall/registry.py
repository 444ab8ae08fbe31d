"""The games by name, and :func:`load_game` for game strings such as ``hearts(players=8)``.

Each game registers itself at one point: its folder in :mod:`cardhall.games` (a package,
``games/<name>/``) has an ``ENTRY`` in its ``__init__.py`` (a :class:`~cardhall.games.GameEntry`: the game
class, its data, and its pieces above the rules by module path). Every module and folder of that package
is imported once and its entry read; a new game needs no edit here. The front ends find a game's pieces
here by the game's name (:func:`entry`, :func:`piece`) and its files in its folder (:func:`folder`,
:func:`game_file`), never from a list of their own.

The package's path may hold more folders than the installed one (``CARDHALL_GAMES``, see
:mod:`cardhall.games`): a game written with ``cardhall new-game`` into another directory is found the
same way.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib import resources
from importlib.resources.abc import Traversable
from types import ModuleType

from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.games import GameEntry
from cardhall.options import parse_spec

_ENTRIES: dict[str, GameEntry] = {}
_PACKAGES: dict[str, str] = {}  # each game's package (its folder), by name


def _discover() -> dict[str, GameEntry]:
    if not _ENTRIES:
        import cardhall.games as package

        found: dict[str, GameEntry] = {}
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            registered = getattr(module, "ENTRY", None)
            if isinstance(registered, GameEntry):
                name = registered.game.name
                if name in found:
                    raise ImportError(f"cardhall: two modules register the game {name!r}")
                found[name] = registered
                _PACKAGES[name] = module.__name__
        _ENTRIES.update(sorted(found.items()))
    return _ENTRIES


def entries() -> dict[str, GameEntry]:
    """Every registered game's entry by name, sorted by name."""
    return dict(_discover())


def entry(name: str) -> GameEntry:
    """The entry of the game ``name``; InvalidOptionError naming the games for an unknown one."""
    games = _discover()
    if name not in games:
        raise InvalidOptionError(f"unknown game {name!r} (games: {', '.join(games)})")
    return games[name]


def package(name: str) -> str:
    """The package of the game ``name`` (its folder, ``cardhall.games.<name>``)."""
    entry(name)
    return _PACKAGES[name]


def folder(name: str) -> Traversable:
    """The folder of the game ``name`` (its package: its rules, texts, schema and data files)."""
    entry(name)
    return resources.files(_PACKAGES[name])


def game_file(name: str, filename: str) -> str:
    """The text of a file of the game ``name``'s folder (``"rulebook.en.md"``); OSError when it has none."""
    return folder(name).joinpath(filename).read_text(encoding="utf-8")


def piece(name: str, kind: str) -> ModuleType:
    """The module of the game ``name``'s piece ``kind`` (``"rules_bot"``, ``"encoder"``,
    ``"terminal"``: a field of :class:`~cardhall.games.GameEntry`), imported. InvalidOptionError when
    that module does not exist (an error inside it is raised as it is)."""
    path: str = getattr(entry(name), kind)
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as e:
        if e.name is None or not path.startswith(e.name):
            raise
        raise InvalidOptionError(f"{name}: its {kind} module {path} does not exist") from None


def game_classes() -> dict[str, type[Game]]:
    """Every registered game class by name, sorted by name."""
    return {name: e.game for name, e in _discover().items()}


def load_game(text: str | Game) -> Game:
    """The game a game string names, with its options checked: one object per string (a game is its
    rules and never changes), kept for the :data:`KEPT_GAMES` strings named last."""
    if isinstance(text, Game):
        return text
    game = _LOADED.pop(text, None)
    if game is None:
        name, raw = parse_spec(text, "game")
        game = entry(name).game(**raw)  # (a bad string raises here, and nothing is kept)
        if len(_LOADED) >= KEPT_GAMES:
            del _LOADED[next(iter(_LOADED))]  # (the one named longest ago)
    _LOADED[text] = game
    return game


# A server makes a table's game from its string at every table; each game object builds its tables for
# the hot paths (Hearts: a tuple per seat and action), which were a good part of what the garbage
# collector had to look at while tables started by the thousand.
KEPT_GAMES = 256
_LOADED: dict[str, Game] = {}
