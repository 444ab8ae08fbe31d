"""The ``cardhall`` command line: games, play, simulate, replay.

Each sub-command is a thin layer over the Game API and :mod:`cardhall.sim`; a bad game string, bot or
option is reported in one line with exit status 2, never replaced by a default.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardhall.errors import CardhallError
from cardhall.options import format_value
from cardhall.records import replay
from cardhall.registry import game_classes, load_game
from cardhall.sim.bench import add_bench_parser, cmd_bench
from cardhall.sim.simulate import resolve_bots, simulate
from cardhall.table import Occupant
from cardhall.table import Table as PlayTable


def _bot_list(text: str | None) -> list[str] | None:
    if not text:
        return None
    # Commas inside parentheses belong to a bot's options: "search(ms=500,k=2),random".
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur.strip())
    return [b for b in out if b]


# --- games ---------------------------------------------------------------------------------------


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


# --- play ----------------------------------------------------------------------------------------


def _show(console: Console, table: PlayTable, seat: int) -> None:
    game = table.game
    obs = table.observation(seat)
    console.rule(f"{game}  —  you are seat {seat}")
    for line in game.describe(obs):
        console.print(line, markup=False)
    console.print("Scores: " + "  ".join(f"seat {s}: {v}" for s, v in enumerate(obs["scores"])))
    if obs.get("hand"):
        console.print("Your hand: " + " ".join(obs["hand"]), markup=False)


def _ask(console: Console, table: PlayTable, seat: int, stdin: TextIO) -> int | None:
    game = table.game
    legal = table.legal_actions(seat)
    entries = [f"{i:>3}. {game.action_label(a)}" for i, a in enumerate(legal, 1)]
    # Long lists (Svara's bet amounts) go in columns so the table stays on screen.
    per_line = 1 if len(entries) <= 12 else 4
    width = max(len(e) for e in entries) + 2
    for k in range(0, len(entries), per_line):
        console.print("".join(e.ljust(width) for e in entries[k : k + per_line]).rstrip(), markup=False)
    while True:
        console.print("Your move (number or label, 'quit' to leave): ", end="")
        line = stdin.readline()
        if not line:
            console.print()
            return None
        text = line.strip()
        if text.lower() in ("quit", "exit", "q"):
            return None
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            console.print(f"[red]{k} is not in the list: choose 1 to {len(legal)}[/red]")
            continue
        try:
            action = game.parse_action(text)
        except CardhallError as e:
            console.print(f"[red]{e}[/red]", markup=True)
            continue
        if action not in legal:
            console.print(f"[red]{game.action_label(action)!r} is not legal now[/red]")
            continue
        return action


def _who(table: PlayTable, seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat} ({table.seats[seat].name})"


def _plays(cards: list[dict[str, Any]]) -> str:
    return " ".join(f"{p['seat']}:{p['card']}" for p in cards)


def describe_event(event: dict[str, Any], table: PlayTable, me: int) -> str | None:
    """One line for the terminal about an event of ``me``'s stream (None: nothing worth a line)."""
    kind = event["type"]
    if kind == "seat":
        return None
    if kind == "action":
        if event["seat"] == me:
            return None  # the person knows what he did
        return f"{_who(table, event['seat'], me)}: {event['action']}"
    if kind == "trick":
        winner = event.get("winner")
        taken = "set aside" if winner is None else f"taken by {_who(table, winner, me)}"
        return f"trick {_plays(event['cards'])}: {taken}"
    if kind == "deal":
        return f"deal {event['deal']} begins"
    if kind == "deal_scored":
        points = ", ".join(f"seat {s}: {p:+d}" for s, p in enumerate(event["points"]))
        return f"deal {event['deal']} scored: {points}; totals {event['totals']}"
    if kind == "match_over":
        return None
    fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("n", "type"))
    return f"{kind.replace('_', ' ')}: {fields}"


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    game = load_game(args.game)
    n = game.num_players
    if not 0 <= args.seat < n:
        raise CardhallError(f"{game}: seat must be 0..{n - 1}, got {args.seat}")
    others = _bot_list(args.bots) or ["random"]
    if len(others) == 1:
        others = others * (n - 1)
    if len(others) == n:
        others = [b for s, b in enumerate(others) if s != args.seat]
    if len(others) != n - 1:
        raise CardhallError(f"{game}: give one bot, or {n - 1} bots for the other seats")
    bots = iter(others)
    seats = [Occupant.person() if s == args.seat else Occupant.for_bot(next(bots)) for s in range(n)]
    table = PlayTable(game, seats, seed=args.seed)
    me = args.seat
    console.print(
        f"Playing {game} (seed {table.seed}); bots: "
        + ", ".join(f"seat {s} {o.bot}" for s, o in enumerate(table.seats) if o.is_bot)
    )
    shown = 0

    def tell() -> None:
        # Only this seat's own stream: what the person may see, nothing more.
        nonlocal shown
        for event in table.events(me, since=shown):
            line = describe_event(event, table, me)
            if line is not None:
                console.print(line, markup=False)
        shown = table.number

    while True:
        table.run_bots()
        tell()
        if table.is_over:
            break
        _show(console, table, me)
        action = _ask(console, table, me, sys.stdin)
        if action is None:
            console.print(f"Left the table. Record seed {table.seed}, {len(table.state.history)} actions.")
            return 0
        table.apply(me, action)
    _show(console, table, me)
    console.print("Match over. Winners: " + ", ".join(f"seat {s}" for s in table.state.winners))
    return 0


# --- simulate ------------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    game = load_game(args.game)
    bots = resolve_bots(str(game), _bot_list(args.bots))
    if args.games < 1:
        raise CardhallError(f"--games must be at least 1, got {args.games}")
    err = Console(stderr=True)
    with Progress(
        TextColumn(f"{game}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=args.quiet,
    ) as progress:
        total = args.games * (game.num_players if args.rotate else 1)
        task = progress.add_task("simulate", total=total)
        report = simulate(
            str(game),
            bots,
            args.games,
            args.seed,
            args.jobs,
            args.records,
            progress=lambda k: progress.advance(task, k),
            rotate=args.rotate,
        )
    summary = report.summary()
    if args.json:
        print(json.dumps(summary))
        return 0
    table = Table(title=f"{summary['games']} matches of {game}", title_justify="left")
    for col in ("seat", "bot", "mean score (95% CI)", "wins", "win rate (95% CI)"):
        table.add_column(col)
    for row in summary["seats"]:
        m, w = row["mean_score"], row["win_rate"]
        table.add_row(
            str(row["seat"]),
            row["bot"],
            f"{m['value']:.1f} [{m['low']:.1f}, {m['high']:.1f}]",
            f"{row['wins']:g}",
            f"{w['value']:.3f} [{w['low']:.3f}, {w['high']:.3f}]",
        )
    console.print(table)
    if args.rotate:
        _print_by_bot(console, summary)
    if args.records:
        console.print(f"Records written to {args.records}")
    return 0


def _print_by_bot(console: Console, summary: dict[str, Any]) -> None:
    title = (
        f"per bot: {summary['seeds']} deals x {len(summary['bots'])} rotations "
        "(margin: mean score minus the other bots', paired by deal)"
    )
    table = Table(title=title, title_justify="left")
    for col in ("bot", "seats", "mean score (95% CI)", "win rate (95% CI)", "margin (95% CI)"):
        table.add_column(col)
    for row in summary["by_bot"]:
        m, w, d = row["mean_score"], row["win_rate"], row["margin"]
        table.add_row(
            row["bot"],
            str(row["seats_played"]),
            f"{m['value']:.1f} [{m['low']:.1f}, {m['high']:.1f}]",
            f"{w['value']:.3f} [{w['low']:.3f}, {w['high']:.3f}]",
            "-" if d is None else f"{d['value']:+.1f} [{d['low']:+.1f}, {d['high']:+.1f}]",
        )
    console.print(table)


# --- replay --------------------------------------------------------------------------------------


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


# --- serve ---------------------------------------------------------------------------------------

DEFAULT_DB = "sqlite+aiosqlite:///cardhall.db"


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    try:
        import uvicorn

        from cardhall.server.app import create_app
    except ImportError as e:
        raise CardhallError(f"the server needs its extra: pip install 'cardhall[server]' ({e})") from None
    if not 0 <= args.port < 65536:
        raise CardhallError(f"--port must be 0..65535, got {args.port}")
    if args.bot_workers < 1:
        raise CardhallError(f"--bot-workers must be at least 1, got {args.bot_workers}")
    app = create_app(args.db, bot_workers=args.bot_workers)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    console.print(f"cardhall: serving on http://{shown}:{args.port}/  (database {_public_url(args.db)})")
    # Frames are small JSON: compressing each costs more CPU than it saves on the wire.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        log_level="warning",
    )
    return 0


def _public_url(url: str) -> str:
    """A database URL without its password."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, auth = head.partition("//")
    return f"{scheme}//{auth.split(':', 1)[0]}:***@{tail}"


# --- entry point ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardhall", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("games", help="list the games and their options")

    p = sub.add_parser("play", help="play one seat in the terminal against bots")
    p.add_argument("game", help="game string, e.g. hokm or 'hokm(target=300)'")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--bots", help="bot for the other seats, or one per other seat: random,random")
    p.add_argument("--seed", type=int, default=None, help="seed of the match (default: random)")

    s = sub.add_parser("simulate", help="play many matches with bots and report the results")
    s.add_argument("game")
    s.add_argument("--games", type=int, required=True, help="number of matches")
    s.add_argument("--bots", help="one bot for every seat, or one per seat")
    s.add_argument("--seed", type=int, default=0, help="first seed (matches use seed, seed+1, ...)")
    s.add_argument("--jobs", type=int, default=1, help="worker processes")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--records", help="write every match's record to this JSONL file")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument(
        "--rotate",
        action="store_true",
        help="duplicate deals: play each seed once per rotation of the bots round the table, "
        "and report per bot",
    )

    r = sub.add_parser("replay", help="replay the records of a JSONL file and check them")
    r.add_argument("file", help="a JSONL file of records ('-' for standard input)")
    r.add_argument("--verbose", action="store_true", help="print every action")
    add_bench_parser(sub)

    v = sub.add_parser("serve", help="run the multiplayer server (lobby, tables, websockets) on this machine")
    v.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    v.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    v.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"database URL: SQLite (default {DEFAULT_DB}) or postgresql+asyncpg://user:pass@host/db",
    )
    v.add_argument("--bot-workers", type=int, default=1, help="worker processes for bots that search")
    return parser


COMMANDS = {
    "games": cmd_games,
    "play": cmd_play,
    "simulate": cmd_simulate,
    "replay": cmd_replay,
    "bench": cmd_bench,
    "serve": cmd_serve,
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
