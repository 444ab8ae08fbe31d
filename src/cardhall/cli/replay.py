"""``cardhall replay``: replays the records of a JSONL file and checks them, or (``--show``) steps
through them with every hand open.

A missing file, a folder or a file with no record is one line of error (exit status 2); a record that
does not replay is reported with its line number and the run ends with status 1; the last line is
always the summary (``3 records: 2 finished, 1 unfinished, 0 bad``), and ``--quiet`` prints that line alone
(and the bad records). Seats are printed counted from 1 (:mod:`cardhall.terminal.seats`).

``--show --move N`` opens the first match (``--match K``: the K-th) at its move N, counted from 1 as the
viewer's ``[N/total]`` and the review's ``move`` column count them: every action before it is applied
unseen, the position before move N is shown, and Enter steps on from there. A move past the end of the
match is refused in one line before anything is shown.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from rich.console import Console

from cardhall.errors import CardhallError, InvalidRecordError
from cardhall.records import replay
from cardhall.terminal import saved
from cardhall.terminal.seats import seat_name, seat_names
from cardhall.terminal.session import read_line
from cardhall.terminal.style import terminal_style
from cardhall.terminal.viewer import show_file


def _lines(name: str) -> Iterable[str]:
    if name == "-":
        yield from sys.stdin
        return
    path = Path(name)
    if path.is_dir():
        raise InvalidRecordError(f"{path} is a folder, not a records file")
    try:
        with path.open(encoding="utf-8") as source:
            yield from source
    except FileNotFoundError:
        raise InvalidRecordError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecordError(f"{path}: cannot read it ({e})") from None


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    if args.show:
        if args.file == "-":
            raise CardhallError("--show reads its steps from the keyboard: give a file, not '-'")
        style = terminal_style(console, args.ascii)
        return show_file(Path(args.file), console, style, read_line, move=args.move, match=args.match)
    if args.move is not None or args.match is not None:
        raise CardhallError("--move and --match open a match in the viewer: give --show too")
    seen = over = bad = 0
    for lineno, line in enumerate(_lines(args.file), 1):
        if not line.strip():
            continue
        seen += 1
        try:
            state = replay(saved.record_of(json.loads(line)))
        except (CardhallError, json.JSONDecodeError) as e:
            console.print(f"line {lineno}: cannot replay: {e}", markup=False, soft_wrap=True)
            bad += 1
            continue
        over += state.is_over
        if args.quiet:
            continue
        if args.verbose:
            for seat, action in state.history:
                console.print(f"  {seat_name(seat)}: {state.game.action_label(action)}", markup=False)
        status = "over" if state.is_over else "in progress"
        console.print(
            f"line {lineno}: {state.game} seed {state.seed}: {len(state.history)} actions, "
            f"{status}, scores {list(state.scores)}, winners {seat_names(list(state.winners))}",
            markup=False,
        )
    if not seen:
        raise InvalidRecordError(f"{'standard input' if args.file == '-' else args.file} holds no record")
    plural = "record" if seen == 1 else "records"
    console.print(
        f"{seen} {plural}: {over} finished, {seen - over - bad} unfinished, {bad} bad", markup=False
    )
    return 1 if bad else 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = sub.add_parser("replay", help="replay the records of a JSONL file and check them")
    r.add_argument("file", help="a JSONL file of records, or a save file of play ('-' for standard input)")
    r.add_argument("--verbose", action="store_true", help="print every action")
    r.add_argument("--quiet", action="store_true", help="print only the summary line (and bad records)")
    r.add_argument(
        "--show", action="store_true", help="step through each match with every hand open (Enter, q)"
    )
    r.add_argument("--ascii", action="store_true", help="with --show: cards as QS 10H, no colour")
    r.add_argument(
        "--move",
        type=int,
        metavar="N",
        help="with --show: open at move N (from 1; the review's 'move' column names it)",
    )
    r.add_argument("--match", type=int, metavar="K", help="with --show: only the K-th record of the file")
