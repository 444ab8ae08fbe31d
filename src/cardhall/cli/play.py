"""``cardhall play``: one person at a terminal against bots, through the Table."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from rich.console import Console

from cardhall.cli.common import bot_list
from cardhall.errors import CardhallError
from cardhall.registry import load_game
from cardhall.table import Occupant
from cardhall.table import Table as PlayTable


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
    others = bot_list(args.bots) or ["random"]
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


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play one seat in the terminal against bots")
    p.add_argument("game", help="game string, e.g. hokm or 'hokm(target=300)'")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--bots", help="bot for the other seats, or one per other seat: random,random")
    p.add_argument("--seed", type=int, default=None, help="seed of the match (default: random)")
