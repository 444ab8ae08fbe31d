"""The play loop: one person at a Table, the bots in the other seats, until the match ends or he leaves.

Decisions:

- Bots act one at a time while the Table names one (``table.bots_to_act()``), so a bot never takes away
  the person's pending choice: a gin captain (bot) waits for his advisor (the person), and a bot
  advisor advises before the person, as captain, is asked. The person is asked only when the Table
  waits for him alone.
- After each bot move the person's new events are narrated, then the terminal pauses ``delay``
  seconds (nothing is paused for a move he cannot see, such as another seat's Hearts pass).
- The screen (the compact table, the phase's one-sentence hint, the menu) is shown before each choice;
  ``help`` explains how to answer, ``rules`` prints the rules of the game with its options in force.
- With a save file, the record is written after every action (see :mod:`.saved`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from cardhall.errors import CardhallError
from cardhall.table import Table
from cardhall.terminal import saved
from cardhall.terminal.menu import Menu, build_menu, read_answer
from cardhall.terminal.narrate import Narrator
from cardhall.terminal.rulebook_text import phase_hint, show_rules
from cardhall.terminal.screen import screen
from cardhall.terminal.style import Style

HELP = (
    "Answer with the number of a choice, or type the action itself ('play QS', 'bid 5', 'raise 250'; "
    "a card alone plays it). 'rules' shows the rules of this game, 'help' this text, 'quit' leaves "
    "the table (Ctrl-D too)."
)


def read_line() -> str | None:
    line = sys.stdin.readline()
    return line if line else None


@dataclass
class Session:
    table: Table
    me: int
    console: Console
    style: Style
    delay: float = 0.0
    lang: str = "en"
    save: Path | None = None
    read: Callable[[], str | None] = read_line
    sleep: Callable[[float], None] = time.sleep

    def __post_init__(self) -> None:
        table = self.table
        names = [o.bot or o.name or o.kind for o in table.seats]
        self.narrator = Narrator(table.game.name, names, self.me, self.style)
        self.shown = 0
        self.last_hand: list[str] = []

    # --- output --------------------------------------------------------------------------------

    def say(self, markup: str) -> None:
        # Wrapped at word boundaries to the terminal's width (80 columns when it is not a terminal).
        self.console.print(markup, highlight=False, width=min(self.console.width, 80))

    def tell(self) -> bool:
        """Narrate the person's new events; whether any showed something worth a pause (another
        seat's hidden pass is told, but there is nothing to follow)."""
        worth = False
        for event in self.table.events(self.me, since=self.shown):
            lines = self.narrator.lines(event)
            for line in lines:
                self.say(line)
            worth = worth or (bool(lines) and not event.get("hidden"))
        self.shown = self.table.number
        return worth

    def show_screen(self) -> None:
        table, game = self.table, self.table.game
        obs = table.observation(self.me)
        line, dot = ("─", "·") if self.style.pretty else ("-", "-")
        title = f"{line * 2} {game.title} {dot} {game} {dot} you are seat {self.me} "
        self.say(escape((title + line * max(0, 80 - len(title)))[:80]))
        hand = list(obs.get("hand") or [])
        new = self.new_cards(hand)
        self.last_hand = hand
        for line in screen(game.name, obs, self.narrator.names, self.me, self.style, new):
            self.say(line)

    def new_cards(self, hand: list[str]) -> list[str]:
        """The cards in ``hand`` that were not in it at the last screen, unless a new deal began."""
        left = list(self.last_hand)
        new = []
        for card in hand:
            if card in left:
                left.remove(card)
            else:
                new.append(card)
        return new if len(new) < min(len(hand), 4) else []

    def hint(self) -> str:
        return phase_hint(self.table.game, str(self.table.observation(self.me).get("phase", "")), self.lang)

    def show_menu(self, menu: Menu) -> None:
        hint = self.hint()
        if hint:
            text = escape("Hint: " + self.style.text(hint))
            self.say(f"[italic]{text}[/]" if self.style.colour else text)
        for line in menu.lines(self.style):
            self.say(line)

    def write_save(self) -> None:
        if self.save is not None:
            bots: list[str | None] = [o.bot or None for o in self.table.seats]
            saved.write(self.save, self.table.record(), self.me, bots)

    # --- the loop ------------------------------------------------------------------------------

    def run(self) -> int:
        table = self.table
        self.tell()
        self.write_save()
        while True:
            bots = table.bots_to_act()
            if bots:
                table.play_bot(bots[0])
                self.write_save()
                if self.tell() and self.delay > 0:
                    self.sleep(self.delay)
                continue
            if table.is_over:
                break
            if self.me not in table.waiting_for():
                raise CardhallError(f"{table.game}: the table waits for seats {table.waiting_for()}")
            action = self.ask()
            if action is None:
                self.leave()
                return 0
            table.apply(self.me, action)
            self.write_save()
            self.tell()
        if self.save is not None:
            text = f"The record is in {self.save} ('cardhall replay {self.save} --show' steps through it)."
            self.console.print(escape(text), highlight=False, soft_wrap=True)
        return 0

    def leave(self) -> None:
        table = self.table
        done = len(table.state.history)
        text = f"Left the table (you were seat {self.me}); seed {table.seed}, {done} actions."
        if self.save is not None:
            text += f" Continue with: cardhall play --resume {self.save}"
        self.console.print(escape(text), highlight=False, soft_wrap=True)  # a command to copy: unbroken

    def why(self, action: int) -> str:
        try:
            self.table.state.clone().apply(self.me, action)
        except CardhallError as e:
            return str(e)
        return "the table has moved on"

    def ask(self) -> int | None:
        table = self.table
        self.show_screen()
        legal = table.legal_actions(self.me)
        menu = build_menu(table.game, legal, table.observation(self.me).get("pot"))
        self.show_menu(menu)
        while True:
            self.console.print(f"Your move (1-{len(menu.entries)}, an action, help, rules, quit): ", end="")
            try:
                line = self.read()
            except KeyboardInterrupt:  # Ctrl-C leaves like Ctrl-D: the save file is already written
                line = None
            if line is None:
                self.console.print()
                return None
            answer = read_answer(line, menu, table.game, legal, self.why)
            if answer.action is not None:
                return answer.action
            if answer.command == "quit":
                return None
            if answer.command == "help":
                self.say(escape(HELP))
                hint = self.hint()
                if hint:
                    self.say(escape("Now: " + self.style.text(hint)))
                self.show_menu(menu)
            elif answer.command == "rules":
                try:
                    show_rules(self.console, table.game, self.lang, plain=not self.style.colour)
                except CardhallError as e:
                    self.console.print(self.style.warn(str(e)), highlight=False, soft_wrap=True)
                    continue
                self.show_screen()
                self.show_menu(menu)
            elif answer.error:
                # One logical line, however long: the terminal wraps it, rich inserts no break.
                self.console.print(self.style.warn(answer.error), highlight=False, soft_wrap=True)
