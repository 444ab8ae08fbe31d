"""``cardhall rules GAME``: the rules of a game in the project's own words, with the options in force."""

from __future__ import annotations

import argparse

from rich.console import Console

from cardhall.registry import load_game
from cardhall.terminal.rulebook_text import show_rules


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    game = load_game(args.game)
    show_rules(console, game, args.lang, plain=args.plain)
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rules",
        help="print the rules of a game, with the options in force",
        description="print the rules of a game, with the options in force",
    )
    p.add_argument("game", help="game string, e.g. hokm or 'hokm(target=300)'")
    p.add_argument("--lang", default="en", help="language: en (English) or bn (Bengali)")
    p.add_argument("--plain", action="store_true", help="the Markdown source, not rendered")
