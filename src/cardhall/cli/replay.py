"""``cardhall replay``: replays the records of a JSONL file and checks them."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console

from cardhall.errors import CardhallError
from cardhall.records import replay


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
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
