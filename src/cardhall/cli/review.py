"""``cardhall review``: what each decision of one seat cost in a finished match (:mod:`cardhall.review`).

Input: a records file (one record a line, as ``cardhall simulate --records`` and ``play --save`` write), a
file holding one record as a JSON object (pretty-printed too: what ``GET /api/tables/{id}/record``
answers), ``-`` for standard input, or ``--server URL --table ID`` to fetch that route. Every record is
read and replayed, and the seat checked, before anything is searched: a bad file, record, seat, budget
or seed is one line naming it and exit status 2, however long the review would have taken.

Decisions: the seat is ``--seat``, else the person's seat of a ``play --save`` file, else 0 (a record
does not say whose review is wanted). A file of many records reviews each (``--match N``: the N-th
only), one progress bar over every decision of them all (on standard error, gone when done). The
human form lists the flagged decisions (the move played and its expected deal result; the better move
and its own, only where it is clearly better; what the move played cost, with its 95% interval over the
sampled deals, or "in all N" where every sampled deal agreed; the verdict), then a line per deal and the
match's line, every amount in the game's unit (points; Svara's chips). What the match's line calls
"left on the table" is measured against the better moves the search found, not against the other
players, so a match won has it too; ``--json`` prints
each review as one JSON object a line (the shape documented in :mod:`cardhall.review`), nothing else on
standard output.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardhall.core import Record
from cardhall.errors import CardhallError, InvalidOptionError, InvalidRecordError
from cardhall.records import check_record
from cardhall.review import (
    DEFAULT_BUDGET,
    check_budget,
    check_review_seed,
    check_seat,
    count_decisions,
    review,
)
from cardhall.terminal import saved

FETCH_SECONDS = 30


def _parse(text: str, where: str) -> list[tuple[str, Any]]:
    """(where, JSON value) of each record in a text: one JSON value for the whole text, or one a line."""
    stripped = text.strip()
    if not stripped:
        raise InvalidRecordError(f"{where} holds no record")
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    else:
        if isinstance(whole, dict):
            return [(where, whole)]
        if isinstance(whole, list):  # a JSON list of records
            return [(f"{where} record {i}", item) for i, item in enumerate(whole, 1)]
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append((f"{where} line {lineno}", json.loads(line)))
        except json.JSONDecodeError as e:
            raise InvalidRecordError(f"{where} line {lineno}: not JSON ({e})") from None
    return out


def _fetch(server: str, table: str) -> str:
    url = f"{server.rstrip('/')}/api/tables/{urllib.parse.quote(table, safe='')}/record"
    if not url.startswith(("http://", "https://")):
        raise InvalidOptionError(f"--server {server!r}: give an http:// or https:// address")
    try:
        with urllib.request.urlopen(url, timeout=FETCH_SECONDS) as response:
            body: bytes = response.read()
            return body.decode("utf-8")
    except urllib.error.HTTPError as e:
        try:
            detail = json.loads(e.read().decode("utf-8")).get("message", "")
        except (ValueError, AttributeError):
            detail = ""
        raise InvalidRecordError(f"{url}: HTTP {e.code} {detail or e.reason}") from None
    except (urllib.error.URLError, OSError, UnicodeDecodeError) as e:
        reason = getattr(e, "reason", e)
        raise InvalidRecordError(f"{url}: cannot fetch it ({reason})") from None


def _inputs(args: argparse.Namespace) -> list[tuple[str, Any]]:
    if args.server or args.table:
        if not (args.server and args.table):
            raise InvalidOptionError("--server and --table go together (the server's address and a table id)")
        if args.file:
            raise InvalidOptionError("give a FILE or --server with --table, not both")
        return _parse(_fetch(args.server, args.table), f"table {args.table}")
    if not args.file:
        raise InvalidOptionError("give a records FILE ('-' for standard input), or --server URL --table ID")
    if args.file == "-":
        return _parse(sys.stdin.read(), "standard input")
    return _parse(saved.read_text(Path(args.file)), args.file)


def _jobs(args: argparse.Namespace) -> list[tuple[str, Record, int]]:
    """(where, record, seat) of each review asked for, every one checked."""
    found = _inputs(args)
    if args.match is not None:
        if not 1 <= args.match <= len(found):
            raise InvalidOptionError(f"--match must be 1..{len(found)} (the records found), got {args.match}")
        found = [found[args.match - 1]]
    out = []
    for where, data in found:
        try:
            record = saved.record_of(data)
            game = check_record(record)
        except CardhallError as e:
            raise InvalidRecordError(f"{where}: {e}") from None
        seat = args.seat
        if seat is None:
            person = data.get("seat") if isinstance(data, dict) else None
            seat = person if isinstance(person, int) and not isinstance(person, bool) else 0
        try:
            check_seat(game, seat)
        except CardhallError as e:
            raise InvalidOptionError(f"--seat: {e}") from None
        out.append((where, record, seat))
    return out


def cmd_review(args: argparse.Namespace, console: Console) -> int:
    budget = check_budget(args.budget)
    seed = check_review_seed(args.seed)
    jobs = _jobs(args)
    counts = []
    for where, record, seat in jobs:  # replays every record: a bad one is refused before any search
        try:
            counts.append(count_decisions(record, seat))
        except CardhallError as e:
            raise InvalidRecordError(f"{where}: {e}") from None
    reviews = []
    with Progress(
        TextColumn("review"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=args.quiet,
    ) as progress:
        task = progress.add_task("review", total=sum(counts))
        offset = 0
        for (_, record, seat), count in zip(jobs, counts, strict=True):
            start = offset

            def advance(done: int, total: int, start: int = start) -> None:
                progress.update(task, completed=start + done)

            reviews.append(review(record, seat, budget=budget, seed=seed, progress=advance))
            offset += count
    for (where, _, _), result in zip(jobs, reviews, strict=True):
        if args.json:
            print(json.dumps(result, separators=(",", ":")))
        else:
            show(console, where, result, every=args.all)
    return 0


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f}"


def _counts(summary: dict[str, Any]) -> str:
    v = summary["verdicts"]
    return (
        f"good {v['good']}, inaccuracies {v['inaccuracy']}, mistakes {v['mistake']}, "
        f"blunders {v['blunder']}, unclear {summary['unclear']}"
    )


def cost(d: dict[str, Any]) -> str:
    """What the move played cost: the loss with its 95% interval over the sampled deals, or, where every
    sampled deal gave the same, the loss in all of them (never an interval of width 0)."""
    if d["agree"]:
        return f"{d['loss']:.1f} in all {d['samples']}"
    low, high = d["interval"]
    return f"{d['loss']:.1f} ({low:.1f} to {high:.1f})"


def show(console: Console, where: str, result: dict[str, Any], every: bool = False) -> None:
    """The human form of a review."""
    rec = result["record"]
    status = "over" if rec["over"] else "in progress"
    t = result["thresholds"]
    unit = result["unit"]
    console.print(
        f"{where}: {result['game']}, seed {rec['seed']} ({rec['actions']} actions, {status}); seat "
        f"{result['seat']} reviewed with {result['budget']} sampled deals (determinizations) a decision, "
        f"review seed {result['seed']}",
        markup=False,
        soft_wrap=True,
    )
    console.print(
        f"Amounts in {unit} of the deal (the seat's {unit} minus the others' mean). A cost is the best "
        f"move's expected deal result minus the move played's, with its 95% interval over the sampled "
        f"deals; inaccuracy from {t['inaccuracy']:g}, mistake from {t['mistake']:g}, blunder from "
        f"{t['blunder']:g}, each clear of {result['z']:g} standard errors",
        markup=False,
        soft_wrap=True,
    )
    shown = [d for d in result["decisions"] if every or d["verdict"] not in ("good", None)]
    if shown:
        table = Table(title="decisions" if every else "flagged decisions", title_justify="left")
        for col in ("deal", "#", "played (expected)", "better (expected)", f"cost in {unit}", "verdict"):
            table.add_column(col)
        for d in shown:
            p, b = d["played"], d["better"]
            table.add_row(
                str(d["deal"]),
                str(d["index"]),
                f"{p['label']} ({p['value']:+.1f})",
                "-" if b is None else f"{b['label']} ({b['value']:+.1f})",
                cost(d),
                d["verdict"] or "unclear",
            )
        console.print(table)
    else:
        console.print("No decision flagged.", markup=False)
    deals = Table(title="per deal", title_justify="left")
    columns = ("deal", "decisions", "forced", "good", "inacc.", "mistakes", "blunders", "unclear")
    for col in (*columns, "accuracy", "left on the table", f"result in {unit}"):
        deals.add_column(col, justify="left" if col == "deal" else "right")
    for d in result["deals"]:
        v = d["verdicts"]
        deals.add_row(
            str(d["deal"]),
            str(d["decisions"]),
            str(d["forced"]),
            *(str(v[k]) for k in ("good", "inaccuracy", "mistake", "blunder")),
            str(d["unclear"]),
            "-" if d["accuracy"] is None else f"{d['accuracy']:.1f}%",
            f"{d['loss']:.1f}",
            _signed(d["result"]),
        )
    console.print(deals)
    m = result["match"]
    acc = "-" if m["accuracy"] is None else f"{m['accuracy']:.1f}%"
    console.print(
        f"Match: {m['decisions']} decisions reviewed ({m['forced']} forced, skipped): {_counts(m)}; "
        f"accuracy {acc}; {m['loss']:.1f} {unit} left on the table (what the better moves the search "
        f"found would have added, counting only losses clear of the noise)",
        markup=False,
        soft_wrap=True,
    )


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = sub.add_parser("review", help="review one seat's decisions in a match: what each cost, from its view")
    r.add_argument(
        "file",
        nargs="?",
        help="a records file (one a line), a file of one record, or '-' for standard input",
    )
    r.add_argument("--seat", type=int, help="the seat to review (default: a save file's seat, else 0)")
    r.add_argument("--match", type=int, help="review only the N-th record of the file (1-based)")
    r.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"determinizations per decision (default {DEFAULT_BUDGET}; reproducible, not timed)",
    )
    r.add_argument("--seed", type=int, default=0, help="the review's own seed (default 0)")
    r.add_argument("--json", action="store_true", help="print each review as one JSON object a line")
    r.add_argument("--all", action="store_true", help="list every decision, not only the flagged ones")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.add_argument("--server", help="fetch the record from this cardhall server (with --table)")
    r.add_argument("--table", help="the table id whose finished match to fetch (with --server)")
