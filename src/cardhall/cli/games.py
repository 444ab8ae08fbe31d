"""``cardhall games``: the games and their options, one plain line each."""

from __future__ import annotations

import argparse

from rich.console import Console

from cardhall.options import format_value
from cardhall.registry import game_classes


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    # Plain lines rather than a table: option names must never be cut or wrapped, whatever the width.
    for name, cls in game_classes().items():
        players = (
            str(cls.min_players)
            if cls.min_players == cls.max_players
            else f"{cls.min_players}-{cls.max_players}"
        )
        console.print(f"[bold]{name}[/bold] — {cls.title} ({players} players)")
        width = max((len(o.name) for o in cls.option_spec), default=0)
        for opt in cls.option_spec:
            console.print(
                f"  {opt.name:<{width}}  default {format_value(opt.default):<12} "
                f"[{opt.describe()}]  {opt.help}",
                markup=False,
                soft_wrap=True,
            )
        console.print()
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub.add_parser("games", help="list the games and their options")
