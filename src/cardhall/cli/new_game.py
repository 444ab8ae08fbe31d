"""``cardhall new-game NAME --like MODEL``: a working copy of a model game under a new name, to change rule
by rule (as OpenSpiel's "copy tic_tac_toe").

The model's folder (``games/<model>/``: :mod:`cardhall.games.pieces`) is copied to ``games/<name>/`` (or
``DIR/<name>/`` with ``--into DIR``, a directory named in ``CARDHALL_GAMES``), and the model's name is
replaced where it names the game, and only there: its modules' paths (``cardhall.games.<model>``), the
game class's ``name`` and ``title``, its game strings (``<model>(``), its schema's ``$id``, its browser
texts' keys (``<model>.…``) and its browser table's export, its playthroughs' files. Elsewhere (its rules
texts, its hints) the words are the model's rules, which the copy plays until they are changed. Choices:

- **Only the copy's folder is written.** Nothing shared is edited: the registry finds the new folder by
  itself, and the copy's entry keeps the model's pieces above the rules (its rules bot, encoder and
  terminal part, which read the same observations), until the game brings its own.
- **A name that is a plain identifier**, not a registered game nor an existing folder: it is the
  game's name in game strings, module paths and the browser's keys.
- **It plays at once**: the copy passes the conformance suite (``tests/games/test_games_conformance.py`` runs
  it on every game without a test file of its own), ``cardhall play NAME``, and a server's quick play.
"""

from __future__ import annotations

import argparse
import keyword
import re
import shutil
from pathlib import Path

from rich.console import Console

from cardhall.errors import InvalidOptionError
from cardhall.games import PIECE_PACKAGES
from cardhall.registry import entries, entry, folder

NAME = re.compile(r"[a-z][a-z0-9_]{1,30}")
TEXT_SUFFIXES = (".py", ".json", ".js", ".md", ".txt")
NOT_COPIED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd")


def check_name(name: str, target: Path) -> None:
    """Refuse a name that cannot be a game's (InvalidOptionError, saying why)."""
    if not NAME.fullmatch(name) or keyword.iskeyword(name):
        raise InvalidOptionError(
            f"a game's name is 2 to 31 lowercase letters, digits or _, starting with a letter: {name!r}"
        )
    if name in entries():
        raise InvalidOptionError(f"{name!r} is a registered game already")
    if target.exists():
        raise InvalidOptionError(f"{target} exists already")


def renamed(text: str, model: str, name: str, suffix: str) -> str:
    """The text of one file of the model's folder, with the model's name replaced where it names the game."""
    title = name.replace("_", " ").title()
    text = re.sub(rf"\bcardhall\.games\.{model}\b", f"cardhall.games.{name}", text)
    text = re.sub(rf"(?<![\w.]){model}\(", f"{name}(", text)  # game strings
    text = re.sub(rf"(?<![\w.]){model}-(?=[\w-]+\b)", f"{name}-", text)  # playthrough names
    if suffix == ".py":
        text = text.replace(f'name = "{model}"', f'name = "{name}"')
        text = re.sub(r'(\n    title = )"[^"\n]*"', rf'\1"{title}"', text, count=1)
    elif suffix == ".json":
        text = text.replace(f"schema/{model}.json", f"schema/{name}.json")
        text = re.sub(rf'"(game\.)?{model}\.', rf'"\g<1>{name}.', text)  # the browser texts' keys
        text = re.sub(rf'("game\.{name}\.title": )"[^"\n]*"', rf'\1"{title}"', text)
    elif suffix == ".js":
        text = text.replace(f"export const {model} = ", f"export const {name} = ")
        text = re.sub(rf"([\"'`]){model}\.", rf"\g<1>{name}.", text)
    return text


def keep_pieces(init: Path, model: str, name: str) -> None:
    """The copy's entry names the model's pieces above the rules (the renaming must not touch them), and
    its docstring says where it comes from."""
    text = init.read_text(encoding="utf-8")
    title = name.replace("_", " ").title()
    text = re.sub(r'^"""[^:\n]*:', f'"""{title} (a copy of {model} by ``cardhall new-game``):', text, count=1)
    for kind in PIECE_PACKAGES:
        text = re.sub(rf'{kind}="[^"]*"', f'{kind}="{getattr(entry(model), kind)}"', text)
    init.write_text(text, encoding="utf-8")


def new_game(name: str, like: str, into: Path | None = None) -> Path:
    """Copy the game ``like``'s folder to ``<into>/<name>/`` (default: beside the model's) under the
    name ``name``; the new folder."""
    entry(like)  # (an unknown model is refused, naming the games)
    source = Path(str(folder(like)))
    target = (into if into is not None else source.parent) / name
    check_name(name, target)
    shutil.copytree(source, target, ignore=NOT_COPIED)
    for path in sorted(target.rglob("*")):
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            text = renamed(path.read_text(encoding="utf-8"), like, name, path.suffix)
            path.write_text(text, encoding="utf-8")
        if path.is_file() and path.name.startswith(f"{like}-"):
            path.rename(path.with_name(name + path.name.removeprefix(like)))
    keep_pieces(target / "__init__.py", like, name)
    return target


def cmd_new_game(args: argparse.Namespace, console: Console) -> int:
    into = Path(args.into) if args.into else None
    target = new_game(args.name, args.like, into)
    console.print(f"{args.name}: a copy of {args.like} in {target}", markup=False, soft_wrap=True)
    if into is not None:
        console.print(f"it is found where CARDHALL_GAMES names {into}", markup=False, soft_wrap=True)
    console.print(f"try it: cardhall play {args.name}; then change its rules.py rule by rule", markup=False)
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "new-game",
        help="write a working copy of a game under a new name, to change rule by rule",
    )
    p.add_argument("name", help="the new game's name (lowercase letters, digits, _), e.g. duel")
    p.add_argument("--like", default="hokm", help="the game to copy (default: hokm)")
    p.add_argument(
        "--into",
        metavar="DIR",
        help="write the folder into DIR (then name DIR in CARDHALL_GAMES), not beside the model's",
    )
