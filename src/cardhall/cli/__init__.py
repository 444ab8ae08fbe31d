"""The ``cardhall`` command line: games, play, simulate, replay, review, bench, serve, bots, admin, new-game.

Each sub-command (one module here) is a thin layer over the Game API, the Table and :mod:`cardhall.sim`;
a bad game string, bot or option is reported in one line with exit status 2, never replaced by a default.
The help is plain text, for a terminal: the top level lists every command with one line, and each
command's ``--help`` starts with that line (no reStructuredText in any help: a test reads them all).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

from rich.console import Console

from cardhall.cli import admin, bots, games, new_game, play, replay, review, rules, serve, simulate
from cardhall.errors import CardhallError
from cardhall.sim.bench import add_bench_parser, cmd_bench

DESCRIPTION = (
    "cardhall: five traditional card games (Hokm, Svara, Gin Rummy, Cancellation Hearts, Kierki) "
    "to play in the terminal or on a server, with bots to play against and to simulate."
)
EPILOG = "Run 'cardhall COMMAND --help' for the options of a command."


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """Sub-commands whose ``--help`` starts with the line the command list shows for them."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        kwargs.setdefault("description", kwargs.get("help"))
        parser: argparse.ArgumentParser = super().add_parser(name, **kwargs)
        return parser


def version() -> str:
    """The installed package's version (the project's pyproject.toml), or where it is run from a
    source tree that was never installed, that it is not known."""
    try:
        return metadata.version("cardhall")
    except metadata.PackageNotFoundError:
        return "(not installed: version unknown)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardhall", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"cardhall {version()}")
    sub = parser.add_subparsers(
        dest="command", required=True, title="commands", metavar="COMMAND", action=_Commands
    )
    games.add_parser(sub)
    play.add_parser(sub)
    simulate.add_parser(sub)
    replay.add_parser(sub)
    review.add_parser(sub)
    rules.add_parser(sub)
    add_bench_parser(sub)
    serve.add_parser(sub)
    bots.add_parser(sub)
    admin.add_parser(sub)
    new_game.add_parser(sub)
    return parser


COMMANDS: dict[str, Callable[[argparse.Namespace, Console], int]] = {
    "games": games.cmd_games,
    "play": play.cmd_play,
    "simulate": simulate.cmd_simulate,
    "replay": replay.cmd_replay,
    "review": review.cmd_review,
    "rules": rules.cmd_rules,
    "bench": cmd_bench,
    "serve": serve.cmd_serve,
    "bots": bots.cmd_bots,
    "admin": admin.cmd_admin,
    "new-game": new_game.cmd_new_game,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Piped output (a file, CI, a test) is not cut to 80 columns: wide tables stay readable; a width
    # asked for in COLUMNS is kept, piped or not.
    wide = not sys.stdout.isatty() and not os.environ.get("COLUMNS")
    console = Console(highlight=False, width=200 if wide else None)
    try:
        return COMMANDS[args.command](args, console)
    except (CardhallError, ValueError) as e:
        return _refuse(f"cardhall {args.command}: {e}")
    except OSError as e:  # a file that cannot be read or written: its name and why
        where = f" {e.filename}:" if e.filename else ""
        return _refuse(f"cardhall {args.command}:{where} {e.strerror or e}")
    except KeyboardInterrupt:
        return 130


def _refuse(message: str) -> int:
    """Print an error as one line, however long (never wrapped at the terminal's width); exit status 2."""
    Console(stderr=True, highlight=False).print(message, markup=False, soft_wrap=True)
    return 2
