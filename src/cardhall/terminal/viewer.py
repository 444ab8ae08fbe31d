"""``cardhall replay FILE --show``: step through a finished (or saved) match with every hand open.

One action per step: Enter shows the next action and what the rules made of it (the spectator's
events, with a hidden action's true label, since every hand is open anyway), then every seat's hand;
``q`` (or the end of input) stops. The record is replayed through a Table, so every action is checked
again as it is shown. ``move``: open at that move (from 1): the actions before it are applied without a
word, the hands are shown as they were before it, and the steps go on from there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from cardhall.core import Record
from cardhall.errors import InvalidOptionError, InvalidRecordError
from cardhall.records import actions as record_actions
from cardhall.records import check_record
from cardhall.table import Table
from cardhall.terminal import saved
from cardhall.terminal.narrate import Narrator
from cardhall.terminal.screen import table_lines
from cardhall.terminal.seats import seat_name, seat_names
from cardhall.terminal.style import Style
from cardhall.terminal.wrap import print_wrapped


def _hands(table: Table, style: Style) -> list[str]:
    """Every seat's hand, then what lies on the table as a spectator sees it."""
    zones = table.state.zones()
    lines = []
    for seat in range(table.game.num_players):
        cards = zones.get(f"hand {seat}", [])
        texts = [style.card_text(card) for card in cards]
        lines.append(f"  {seat_name(seat)}: {style.cards(texts, sort=True)}")
    if not table.is_over:
        lines += ["  " + line for line in table_lines(table.game.name, table.observation(None), style, None)]
    return lines


def check_move(record: Record, move: int | None) -> None:
    """A ``--move`` the record has (1 to its number of actions), refused in one line otherwise."""
    steps = len(record_actions(record))
    if move is not None and not 1 <= move <= steps:
        raise InvalidOptionError(f"--move {move}: this match has moves 1 to {steps}")


def show_record(
    record: Record, console: Console, style: Style, read: Callable[[], str | None], move: int | None = None
) -> bool:
    """Step through one record (from ``move``, counted from 1); False when the person asked to stop."""
    game = check_record(record)
    check_move(record, move)
    steps = record_actions(record)
    table = Table(game, None, record["seed"], deck=record.get("deck"))
    narrator = Narrator(game.name, [""] * game.num_players, None, style)
    first = move or 1
    for seat, action in steps[: first - 1]:
        table.apply(seat, action)

    def say(markup: str) -> None:
        print_wrapped(console, markup)

    head = f"{game} seed {record['seed']}: {len(steps)} actions"
    if first > 1:
        head += f", opened at move {first}"
    say(style.em(head) + escape(" (Enter: next, q: stop)"))
    shown = 0
    if first == 1:
        for event in table.events(None, since=shown):
            for line in narrator.lines(event):
                say(line)
    shown = table.number
    for line in _hands(table, style):
        say(line)
    for k, (seat, action) in enumerate(steps[first - 1 :], first):
        console.print(f"[{k}/{len(steps)}] ", end="", markup=False)
        answer = read()
        if answer is None:
            console.print()
            return False
        if answer.strip().lower() in ("q", "quit"):
            return False
        table.apply(seat, action)
        say(f"{seat_name(seat)}: {style.label(game.action_label(action))}")
        for event in table.events(None, since=shown):
            if event["type"] != "action":
                for text in narrator.lines(event):
                    say(text)
        shown = table.number
        for text in _hands(table, style):
            say(text)
    state = table.state
    status = "over" if state.is_over else "not finished"
    winners = seat_names(list(state.winners))
    say(escape(f"End of the record ({status}): scores {list(state.scores)}, winners {winners}"))
    return True


def show_file(
    path: Path,
    console: Console,
    style: Style,
    read: Callable[[], str | None],
    move: int | None = None,
    match: int | None = None,
) -> int:
    """Step through every record of a records or save file, one after the other (``match``: the
    match-th only, from 1; ``move``: the first shown opens at that move)."""
    lines = [(k, line) for k, line in enumerate(saved.read_text(path).splitlines(), 1) if line.strip()]
    if not lines:
        raise InvalidRecordError(f"{path} holds no record")
    if match is not None:
        if not 1 <= match <= len(lines):
            raise InvalidOptionError(f"--match {match}: {path} holds records 1 to {len(lines)}")
        lines = [lines[match - 1]]
    records = []
    for lineno, line in lines:  # every record read (and the move checked) before the first is shown
        try:
            records.append(saved.record_of(json.loads(line)))
        except json.JSONDecodeError as e:
            raise InvalidRecordError(f"{path} line {lineno}: not JSON ({e})") from None
    check_move(records[0], move)
    for k, record in enumerate(records):
        if not show_record(record, console, style, read, move if k == 0 else None):
            break
    return 0
