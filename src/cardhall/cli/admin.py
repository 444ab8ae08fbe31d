"""``cardhall admin``: the operator's commands, sent to a running server over HTTP with the admin token.

``cardhall admin tables`` lists the tables the server holds (waiting and playing, and finished or
abandoned ones not yet dropped from memory); ``cardhall admin stop TABLE`` stops one: its match ends
``abandoned``, and every connection at it is told why. ``cardhall admin moderator add NAME`` (or
``remove``) gives a player the moderator's role (NAME: a name only one player has, or ``#ID``);
``cardhall admin reports`` lists the chat lines people reported. ``cardhall admin events add --game hokm
--kind arena --minutes 30 --rrule "FREQ=DAILY;BYHOUR=20" --lead 10m`` makes a public event (without
``--rrule``: one, starting after ``--starts-in``) or a recurring schedule of them, each occurrence's event
made ``--lead`` before it starts; ``cardhall admin events list`` and ``cancel ID`` (an event or a
schedule).

Choices:

- The token comes from ``--token-file`` (its first line) or the ``CARDHALL_ADMIN_TOKEN`` variable, the
  same places ``cardhall serve`` reads it from, never from the command line (where every user of the
  machine could read it in the process list), and it is never printed.
- Only the standard library (``urllib``): the operator's machine needs no server extra.
- A server that refuses (a wrong token, no such table) or cannot be reached is reported in one line,
  exit status 2, like every other mistake on the command line.
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from rich.console import Console

from cardhall.errors import CardhallError

TOKEN_VARIABLE = "CARDHALL_ADMIN_TOKEN"
DEFAULT_SERVER = "http://127.0.0.1:8000"
MIN_TOKEN = 16  # characters: an admin token shorter than this is refused, as a guessable one


def read_token(path: str | None, what: str = "--token-file") -> str | None:
    """The admin token: the first line of ``path`` (when given), else ``CARDHALL_ADMIN_TOKEN``; None
    when neither is there. A token shorter than :data:`MIN_TOKEN` is refused."""
    if path is not None:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        token = lines[0].strip() if lines else ""
        source = f"{what} {path}"
    else:
        found = os.environ.get(TOKEN_VARIABLE)
        if found is None:
            return None
        token, source = found.strip(), TOKEN_VARIABLE
    if len(token) < MIN_TOKEN:
        raise CardhallError(f"the admin token in {source} is shorter than {MIN_TOKEN} characters")
    return token


def _ask(args: argparse.Namespace, method: str, path: str, data: Any = None) -> Any:
    token = read_token(args.token_file)
    if token is None:
        raise CardhallError(f"no admin token: give --token-file or set {TOKEN_VARIABLE}")
    url = args.server.rstrip("/") + path
    request = urllib.request.Request(
        url,
        method=method,
        data=None if data is None else json.dumps(data).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=args.timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as e:
        try:
            error = json.loads(e.read())
            why = f"{error['error']}: {error['message']}"
        except (ValueError, KeyError, TypeError):
            why = f"HTTP {e.code} {e.reason}"
        raise CardhallError(f"{args.server} refused: {why}") from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise CardhallError(f"cannot reach {args.server}: {reason}") from None


def _seats(table: dict[str, Any]) -> str:
    return ", ".join(s["name"] or "-" for s in table["seats"])


def _player(text: str) -> int | str:
    """A player named on the command line: ``#12`` (or ``12``) is an id, anything else a name."""
    digits = text.removeprefix("#")
    return int(digits) if digits.isdigit() else text


def _reports(args: argparse.Namespace, console: Console) -> int:
    reports = _ask(args, "GET", f"/api/admin/reports?limit={args.limit}")["reports"]
    if args.json:
        console.print_json(json.dumps(reports))
        return 0
    for r in reports:
        # markup=False: a reported line is what a person typed, printed as it is.
        line = (
            f"#{r['id']}  {r['at']}  table {r['table']}  {r['sender_name']} (player {r['sender']}): "
            f"{r['text']!r}  reported by player {r['reporter']}: {r['reason']!r}"
        )
        console.print(line, markup=False, soft_wrap=True)
    console.print(f"{len(reports)} reports", markup=False)
    return 0


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def duration(text: str) -> int:
    """Seconds of a duration written ``90s``, ``10m``, ``2h`` or ``1d`` (a bare number: seconds)."""
    text = text.strip()
    unit = DURATION_UNITS.get(text[-1:])
    number = text[:-1] if unit is not None else text
    if not number.isdigit():
        raise argparse.ArgumentTypeError(f"not a duration {text!r}: a whole number and s, m, h or d (10m)")
    return int(number) * (unit or 1)


def _events(args: argparse.Namespace, console: Console) -> int:
    if args.change == "cancel":
        done = _ask(args, "POST", f"/api/admin/events/{args.event}/cancel", {})
        console.print(f"cancelled {done['cancelled']}", markup=False)
        return 0
    if args.change == "list":
        listed = _ask(args, "GET", "/api/admin/events")
        if args.json:
            console.print_json(json.dumps(listed))
            return 0
        for s in listed["schedules"]:
            state = "cancelled" if s["cancelled"] else f"next {s['next']}"
            line = (
                f"schedule {s['id']}  {s['kind']:<9} {s['game']:<28} {s['rrule']}  lead {s['lead']} s  "
                f"{state}"
            )
            console.print(line, markup=False, soft_wrap=True)
        for e in listed["events"]:
            line = (
                f"event {e['id']}  {e['kind']:<9} {e['game']:<28} {e['status']:<9} {e['starts_at']}  "
                f"{e['players']} signed up"
            )
            console.print(line, markup=False, soft_wrap=True)
        console.print(f"{len(listed['schedules'])} schedules, {len(listed['events'])} events", markup=False)
        return 0
    body: dict[str, Any] = {"kind": args.kind, "game": args.game, "level": args.level, "lead": args.lead}
    body["starts_in"] = args.starts_in
    for name in ("minutes", "rounds", "deals", "rrule"):
        if getattr(args, name) is not None:
            body[name] = getattr(args, name)
    made = _ask(args, "POST", "/api/admin/events", body)
    if "schedule" in made:
        console.print(f"schedule {made['schedule']}: next {made['next']}", markup=False)
    else:
        console.print(f"event {made['id']} ({made['game']}) starts at {made['starts_at']}", markup=False)
    return 0


def cmd_admin(args: argparse.Namespace, console: Console) -> int:
    if args.what == "reports":
        return _reports(args, console)
    if args.what == "events":
        return _events(args, console)
    if args.what == "moderator":
        path = "/api/admin/moderators" + ("" if args.change == "add" else "/remove")
        done = _ask(args, "POST", path, {"player": _player(args.player)})
        role = "a moderator" if done["moderator"] else "not a moderator"
        already = "" if done["changed"] else " (already)"
        console.print(f"player {done['id']} ({done['name']}) is {role}{already}", markup=False)
        return 0
    if args.what == "tables":
        tables = _ask(args, "GET", "/api/admin/tables")["tables"]
        if args.json:
            console.print_json(json.dumps(tables))
            return 0
        for t in tables:
            line = (
                f"{t['table']}  {t['status']:<9} {t['game']:<28} {t['actions']:>7} actions  "
                f"{t['connections']} connected  {_seats(t)}"
            )
            console.print(line, markup=False, soft_wrap=True)
        console.print(f"{len(tables)} tables", markup=False)
        return 0
    stopped = _ask(args, "POST", f"/api/admin/tables/{args.table}/stop", {"reason": args.reason})
    console.print(f"stopped table {stopped['table']} ({stopped['game']}): {stopped['status']}", markup=False)
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    v = sub.add_parser(
        "admin",
        help="the operator's commands to a running server: tables, stop, moderators, reports, events",
    )
    v.add_argument(
        "--server", default=DEFAULT_SERVER, help=f"the server's address (default {DEFAULT_SERVER})"
    )
    v.add_argument(
        "--token-file",
        help=f"a file whose first line is the server's admin token (default: ${TOKEN_VARIABLE})",
    )
    v.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the server (default 10)")
    what = v.add_subparsers(dest="what", required=True, metavar="WHAT")
    tables = what.add_parser("tables", help="list the tables the server holds")
    tables.add_argument("--json", action="store_true", help="print them as JSON")
    stop = what.add_parser("stop", help="stop a table: its match ends abandoned, its players are told")
    stop.add_argument("table", help="the table's id")
    stop.add_argument(
        "--reason", default="stopped by the operator", help="what its players are told (a short line)"
    )
    mod = what.add_parser("moderator", help="give or take a player's moderator role")
    mod.add_argument("change", choices=("add", "remove"))
    mod.add_argument("player", help="the player: a name only one player has, or #ID")
    reports = what.add_parser("reports", help="list the chat lines people reported, newest first")
    reports.add_argument("--limit", type=int, default=100, help="how many at most (default 100)")
    reports.add_argument("--json", action="store_true", help="print them as JSON")
    events = what.add_parser("events", help="tournaments: add one or a recurring schedule, list, cancel")
    change = events.add_subparsers(dest="change", required=True, metavar="CHANGE")
    add = change.add_parser("add", help="a public event, or a schedule of them (--rrule)")
    add.add_argument("--game", required=True, help="a game string (hokm, hearts(players=4), ...)")
    add.add_argument("--kind", required=True, choices=("arena", "duplicate"))
    add.add_argument("--minutes", type=float, help="an arena's length (default 30)")
    add.add_argument("--rounds", type=int, help="a duplicate event's rounds (default 3)")
    add.add_argument("--deals", type=int, help="deals per match (arena) or round (duplicate; default 2)")
    add.add_argument("--level", default="normal", help="the level of the bots filling seats")
    add.add_argument("--rrule", help='an iCalendar recurrence in UTC ("FREQ=DAILY;BYHOUR=20"): a schedule')
    add.add_argument(
        "--lead", type=duration, default=600, help="a schedule's events are made this long before (10m)"
    )
    add.add_argument("--starts-in", type=duration, default=60, help="a single event starts after (60s)")
    listing = change.add_parser("list", help="the schedules and the events not finished")
    listing.add_argument("--json", action="store_true", help="print them as JSON")
    cancel = change.add_parser("cancel", help="cancel an event or a schedule")
    cancel.add_argument("event", help="the event's or the schedule's id")
