"""``cardhall replay FILE --show``: step through a finished (or saved) match with every hand open.

One action per step: Enter shows the next action and what the rules made of it (the spectator's
events, with a hidden action's true label, since every hand is open anyway), then every seat's hand;
``q`` (or the end of input) stops. The record is replayed through a Table, so every action is checked
again as it is shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from cardhall.core import Record
from cardhall.errors import InvalidRecordError
from cardhall.records import actions as record_actions
from cardhall.records import check_record
from cardhall.table import Table
from cardhall.terminal import saved
from cardhall.terminal.narrate import Narrator
from cardhall.terminal.screen import table_lines
from cardhall.terminal.style import Style


def _hands(table: Table, style: Style) -> list[str]:
    """Every seat's hand, then what lies on the table as a spectator sees it."""
    zones = table.state.zones()
    lines = []
    for seat in range(table.game.num_players):
        cards = zones.get(f"hand {seat}", [])
        texts = [style.card_text(card) for card in cards]
        lines.append(f"  seat {seat}: {style.cards(texts, sort=True)}")
    if not table.is_over:
        lines += ["  " + line for line in table_lines(table.game.name, table.observation(None), style, None)]
    return lines


def show_record(record: Record, console: Console, style: Style, read: Callable[[], str | None]) -> bool:
    """Step through one record; False when the person asked to stop."""
    game = check_record(record)
    steps = record_actions(record)
    table = Table(game, None, record["seed"], deck=record.get("deck"))
    narrator = Narrator(game.name, [""] * game.num_players, None, style)

    def say(markup: str) -> None:
        console.print(markup, highlight=False)

    say(style.em(f"{game} seed {record['seed']}: {len(steps)} actions") + escape(" (Enter: next, q: stop)"))
    shown = 0
    for event in table.events(None, since=shown):
        for line in narrator.lines(event):
            say(line)
    shown = table.number
    for line in _hands(table, style):
        say(line)
    for k, (seat, action) in enumerate(steps, 1):
        console.print(f"[{k}/{len(steps)}] ", end="", markup=False)
        answer = read()
        if answer is None:
            console.print()
            return False
        if answer.strip().lower() in ("q", "quit"):
            return False
        table.apply(seat, action)
        say(f"seat {seat}: {style.label(game.action_label(action))}")
        for event in table.events(None, since=shown):
            if event["type"] != "action":
                for text in narrator.lines(event):
                    say(text)
        shown = table.number
        for text in _hands(table, style):
            say(text)
    state = table.state
    status = "over" if state.is_over else "not finished"
    say(escape(f"End of the record ({status}): scores {list(state.scores)}, winners {list(state.winners)}"))
    return True


def show_file(path: Path, console: Console, style: Style, read: Callable[[], str | None]) -> int:
    """Step through every record of a records or save file, one after the other."""
    lines = [(k, line) for k, line in enumerate(saved.read_text(path).splitlines(), 1) if line.strip()]
    if not lines:
        raise InvalidRecordError(f"{path} holds no record")
    for lineno, line in lines:
        try:
            record = saved.record_of(json.loads(line))
        except json.JSONDecodeError as e:
            raise InvalidRecordError(f"{path} line {lineno}: not JSON ({e})") from None
        if not show_record(record, console, style, read):
            break
    return 0
