"""``cardhall replay``: replays the records of a JSONL file and checks them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console

from cardhall.errors import CardhallError
from cardhall.records import replay


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    if args.show:
        return show(args, console)
    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    bad = 0
    with source:
        for lineno, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                state = replay(record)
            except (CardhallError, json.JSONDecodeError) as e:
                console.print(f"line {lineno}: cannot replay: {e}", markup=False)
                bad += 1
                continue
            if args.verbose:
                for seat, action in state.history:
                    console.print(f"  seat {seat}: {state.game.action_label(action)}", markup=False)
            status = "over" if state.is_over else "in progress"
            console.print(
                f"line {lineno}: {state.game} seed {state.seed}: {len(state.history)} actions, "
                f"{status}, scores {list(state.scores)}, winners {list(state.winners)}",
                markup=False,
            )
    return 1 if bad else 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = sub.add_parser("replay", help="replay the records of a JSONL file and check them")
    r.add_argument("file", help="a JSONL file of records ('-' for standard input)")
    r.add_argument("--verbose", action="store_true", help="print every action")
    r.add_argument(
        "--show", action="store_true", help="step through each match with every hand open (Enter, q)"
    )
    r.add_argument("--ascii", action="store_true", help="with --show: cards as QS 10H, no colour")


def show(args: argparse.Namespace, console: Console) -> int:
    from cardhall.cli.play import terminal_style
    from cardhall.terminal.session import read_line
    from cardhall.terminal.viewer import show_file

    if args.file == "-":
        raise CardhallError("--show reads its steps from the keyboard: give a file, not '-'")
    return show_file(Path(args.file), console, terminal_style(console, args.ascii), read_line)
