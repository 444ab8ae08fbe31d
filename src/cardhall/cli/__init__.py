"""The ``cardhall`` command line: games, play, simulate, replay, bench, serve.

Each sub-command (one module here) is a thin layer over the Game API, the Table and :mod:`cardhall.sim`;
a bad game string, bot or option is reported in one line with exit status 2, never replaced by a default.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from rich.console import Console

from cardhall.cli import games, play, replay, rules, serve, simulate
from cardhall.errors import CardhallError
from cardhall.sim.bench import add_bench_parser, cmd_bench


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardhall", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    games.add_parser(sub)
    play.add_parser(sub)
    simulate.add_parser(sub)
    replay.add_parser(sub)
    rules.add_parser(sub)
    add_bench_parser(sub)
    serve.add_parser(sub)
    return parser


COMMANDS: dict[str, Callable[[argparse.Namespace, Console], int]] = {
    "games": games.cmd_games,
    "play": play.cmd_play,
    "simulate": simulate.cmd_simulate,
    "replay": replay.cmd_replay,
    "rules": rules.cmd_rules,
    "bench": cmd_bench,
    "serve": serve.cmd_serve,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Piped output (a file, CI, a test) is not cut to 80 columns: wide tables stay readable.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    try:
        return COMMANDS[args.command](args, console)
    except (CardhallError, ValueError) as e:
        Console(stderr=True, highlight=False).print(f"cardhall {args.command}: {e}", markup=False)
        return 2
    except KeyboardInterrupt:
        return 130
