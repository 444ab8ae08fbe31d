"""``cardhall review``: what each decision of one seat cost in a finished match (:mod:`cardhall.review`).

Input: a records file (one record a line, as ``cardhall simulate --records`` and ``play --save`` write), a
file holding one record as a JSON object (pretty-printed too: what ``GET /api/tables/{id}/record``
answers), ``-`` for standard input, or ``--server URL --table ID`` to fetch that route. Every record is
read and replayed, and the seat checked, before anything is searched: a bad file, record, seat, budget
or seed is one line naming it and exit status 2, however long the review would have taken.

Decisions: the seat is ``--seat`` (counted from 1, as the page counts seats), else the person's seat of a
``play --save`` file, else the first (a record does not say whose review is wanted); the first line names
whose play it is (``Reviewing your play (seat 1)``: a save file's person, its bots by level, a server
table's players by name) and a seat not at the table is refused naming the seats there are. A file of
many records reviews each (``--match N``: the N-th only), one progress bar over every decision of them
all (on standard error, gone when done). The human form fits 80 columns: it lists the flagged decisions,
each with its move number (from 1, what ``cardhall replay FILE --show --move N`` opens at), the move
played and its expected deal result, the better move and its own (only where it is clearly better), what
the move played cost, with its 95% interval over the sampled deals, or "in all N" where every sampled
deal agreed, the verdict, and under it the position as the seat saw it before the move (the table, the
bidding or the trick so far, its hand: the terminal game's own screen); then a table of the deals and the
match's line, every amount in the game's unit (points; Svara's chips). What the match's line calls
"left on the table" is measured against the better moves the search found, not against the other
players, so a match won has it too. ``--json`` prints each review as one JSON object a line (the shape
documented in :mod:`cardhall.review`, whose seats count from 0 as the API's do), nothing else on
standard output.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardhall.core import Game, Observation, Record
from cardhall.errors import CardhallError, InvalidOptionError, InvalidRecordError
from cardhall.records import check_record, replay
from cardhall.registry import load_game
from cardhall.review import (
    DEFAULT_BUDGET,
    check_budget,
    check_review_seed,
    check_seat,
    count_decisions,
    review,
)
from cardhall.terminal import saved
from cardhall.terminal.screen import WIDTH, screen
from cardhall.terminal.seats import seat_name, seat_option
from cardhall.terminal.style import Style, terminal_style
from cardhall.terminal.wrap import print_wrapped

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


@dataclass(frozen=True)
class Job:
    """One review asked for: where the record came from, the record, the engine seat, whose it is."""

    where: str
    record: Record
    seat: int
    who: str  # "your", "Ann's", "the normal bot's", or "" (nobody named)
    names: list[str]  # each seat's name where one is known (a save file's bots, a server's players), or ""


def _names(args: argparse.Namespace) -> list[str]:
    """The seats' names of a server's finished table (its replay's first page), or none: a name is
    only for the review's first line, so a server that does not give them costs nothing but the name."""
    if not (args.server and args.table):
        return []
    url = f"{args.server.rstrip('/')}/api/tables/{urllib.parse.quote(args.table, safe='')}/replay?count=1"
    try:
        with urllib.request.urlopen(url, timeout=FETCH_SECONDS) as response:
            seats = json.loads(response.read().decode("utf-8")).get("seats", [])
        return [str(s.get("name") or s.get("bot") or "") for s in seats]
    except (urllib.error.URLError, OSError, ValueError, AttributeError):
        return []


def _whose(data: Any, seat: int, names: list[str]) -> str:
    """Whose play the seat's is, as the first line says it."""
    if isinstance(data, dict) and data.get("seat") == seat and isinstance(data.get("bots"), list):
        return "your"  # the person's seat of a ``play --save`` file
    bots = data.get("bots") if isinstance(data, dict) else None
    if isinstance(bots, list) and seat < len(bots) and isinstance(bots[seat], str):
        return f"the {bots[seat]} bot's"
    if seat < len(names) and names[seat]:
        return f"{names[seat]}'s"
    return ""


def _seat_names(data: Any, names: list[str], game: Game) -> list[str]:
    """Each seat's name for the positions shown: a save file's bots (its person is "you" there), else a
    server table's players, else none."""
    bots = data.get("bots") if isinstance(data, dict) else None
    if isinstance(bots, list) and len(bots) == game.num_players:
        return [b if isinstance(b, str) else "" for b in bots]
    return [names[s] if s < len(names) else "" for s in range(game.num_players)]


def _jobs(args: argparse.Namespace) -> list[Job]:
    """Each review asked for, every one checked."""
    found = _inputs(args)
    if args.match is not None:
        if not 1 <= args.match <= len(found):
            raise InvalidOptionError(f"--match must be 1..{len(found)} (the records found), got {args.match}")
        found = [found[args.match - 1]]
    names = _names(args)
    out = []
    for where, data in found:
        try:
            record = saved.record_of(data)
            game = check_record(record)
        except CardhallError as e:
            raise InvalidRecordError(f"{where}: {e}") from None
        if args.seat is not None:
            seat = seat_option(args.seat, game)
        else:
            person = data.get("seat") if isinstance(data, dict) else None
            seat = person if isinstance(person, int) and not isinstance(person, bool) else 0
            try:
                check_seat(game, seat)
            except CardhallError:
                raise InvalidRecordError(f"{where}: its 'seat' {person!r} is not a seat of {game}") from None
        out.append(Job(where, record, seat, _whose(data, seat, names), _seat_names(data, names, game)))
    return out


def cmd_review(args: argparse.Namespace, console: Console) -> int:
    budget = check_budget(args.budget)
    seed = check_review_seed(args.seed)
    jobs = _jobs(args)
    counts = []
    for job in jobs:  # replays every record: a bad one is refused before any search
        try:
            counts.append(count_decisions(job.record, job.seat))
        except CardhallError as e:
            raise InvalidRecordError(f"{job.where}: {e}") from None
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
        for job, count in zip(jobs, counts, strict=True):
            start = offset

            def advance(done: int, total: int, start: int = start) -> None:
                progress.update(task, completed=start + done)

            reviews.append(review(job.record, job.seat, budget=budget, seed=seed, progress=advance))
            offset += count
    for job, result in zip(jobs, reviews, strict=True):
        if args.json:
            print(json.dumps(result, separators=(",", ":")))
        else:
            show(console, job, result, every=args.all, file=_replay_file(args))
    return 0


def _replay_file(args: argparse.Namespace) -> str | None:
    """The file ``cardhall replay --show --move N`` would open (none for standard input or a server)."""
    if args.file and args.file != "-":
        return str(args.file)
    return None


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


def positions(record: Record, seat: int, indices: set[int]) -> dict[int, Observation]:
    """The seat's observation (as text, what the terminal shows) just before each given action."""
    state = replay({**record, "actions": []})
    out: dict[int, Observation] = {}
    for i, (s, action) in enumerate(record["actions"]):
        if i in indices:
            out[i] = state.observation(seat)
        state.apply(s, action)
    return out


def heading(job: Job, result: dict[str, Any]) -> str:
    """Whose play is reviewed, in which match: "Reviewing your play (seat 1): hokm, seed 7, ..."."""
    rec = result["record"]
    status = "over" if rec["over"] else "in progress"
    whose = f"{job.who} play ({seat_name(job.seat)})" if job.who else f"the play of {seat_name(job.seat)}"
    return f"Reviewing {whose}: {result['game']}, seed {rec['seed']}, {rec['actions']} actions, {status}"


def show(
    console: Console, job: Job, result: dict[str, Any], every: bool = False, file: str | None = None
) -> None:
    """The human form of a review, in 80 columns: whose play, what the amounts mean, each flagged
    decision with its position, a table of the deals, the match's line."""
    t = result["thresholds"]
    unit = result["unit"]
    say = partial(print_wrapped, console)
    say(escape(heading(job, result)))
    console.print(escape(f"(from {job.where})"), soft_wrap=True)  # a file name to copy: never broken
    say(
        escape(
            f"Each decision valued over {result['budget']} sampled deals (determinizations) of what the "
            f"seat could see, review seed {result['seed']}. Amounts in {unit} of the deal (the seat's "
            f"{unit} minus the others' mean). A cost is the best move's expected deal result minus the "
            f"move played's, with its 95% interval; inaccuracy from {t['inaccuracy']:g}, mistake from "
            f"{t['mistake']:g}, blunder from {t['blunder']:g}, each clear of {result['z']:g} standard "
            "errors. Accuracy, as lichess's: from the part of each decision's stake (what it could swing) "
            "that it gave away; the decisions that mattered count most (100: every decision as good as "
            "the best the search found)."
        )
    )
    shown = [d for d in result["decisions"] if every or d["verdict"] not in ("good", None)]
    game = load_game(result["game"])
    flagged = {d["index"] for d in shown if d["verdict"] not in ("good", None)}
    views = positions(job.record, job.seat, flagged)
    style = terminal_style(console, ascii_only=False)
    console.print()
    if shown:
        title = "Every decision" if every else "Flagged decisions"
        say(escape(f"{title}, each with its move in the match and the position as the seat saw it then:"))
        if file:
            say("Step through the match from move N with every hand open:")
            console.print(escape(f"  cardhall replay {shlex.quote(file)} --show --move N"), soft_wrap=True)
    else:
        say("No decision flagged.")
    for d in shown:
        console.print()
        say(decision_line(d, style), hanging="    ")
        if d["index"] in views:
            for line in screen(game.name, views[d["index"]], job.names, job.seat, style):
                say(line, indent="    ", hanging="    ")
    console.print()
    say("Per deal:")
    console.print(deals_table(result), width=min(console.width, WIDTH))
    say(
        escape(
            f"(?! inaccuracies, ? mistakes, ?? blunders; left: {unit} left on the table; result: the deal's "
            f"real result for the seat, in {unit})"
        )
    )
    m = result["match"]
    acc = "-" if m["accuracy"] is None else f"{m['accuracy']:.1f}%"
    say(
        escape(
            f"Match: accuracy {acc}; {m['decisions']} decisions reviewed ({m['forced']} forced, skipped): "
            f"{_counts(m)}; {m['loss']:.1f} {unit} left on the table (what the better moves the search "
            "found would have added, counting only losses clear of the noise)"
        )
    )


def decision_line(d: dict[str, Any], style: Style) -> str:
    """One decision as markup: its move, deal and verdict, the move played, the better move, the cost
    (the moves' cards as the positions show them)."""
    p, b = d["played"], d["better"]
    text = escape(f"Move {d['index'] + 1}, deal {d['deal']}: {d['verdict'] or 'unclear'}. Played ")
    text += style.label(p["label"]) + escape(f" (expected {p['value']:+.1f})")
    if b is not None:
        text += "; better " + style.label(b["label"]) + escape(f" (expected {b['value']:+.1f})")
    return text + escape(f"; cost {cost(d)}")


def deals_table(result: dict[str, Any]) -> Table:
    """A line per deal, in 80 columns: its decisions, verdicts, accuracy, what was left, its result."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for col in ("deal", "decisions", "good", "?!", "?", "??", "unclear", "accuracy", "left", "result"):
        table.add_column(col, justify="left" if col == "deal" else "right", no_wrap=True)
    for d in result["deals"]:
        v = d["verdicts"]
        table.add_row(
            str(d["deal"]),
            str(d["decisions"]),
            *(str(v[k]) for k in ("good", "inaccuracy", "mistake", "blunder")),
            str(d["unclear"]),
            "-" if d["accuracy"] is None else f"{d['accuracy']:.1f}%",
            f"{d['loss']:.1f}",
            _signed(d["result"]),
        )
    return table


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = sub.add_parser("review", help="review one seat's decisions in a match: what each cost, from its view")
    r.add_argument(
        "file",
        nargs="?",
        help="a records file (one a line), a file of one record, or '-' for standard input",
    )
    r.add_argument(
        "--seat",
        type=int,
        help="the seat to review, counted from 1 (default: a save file's own seat, else 1)",
    )
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
