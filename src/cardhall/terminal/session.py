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
- At the end of a match the person is shown the two commands that look back at it, exact and unbroken:
  ``cardhall review FILE`` (what his decisions cost) and ``cardhall replay FILE --show``. Without
  ``--save`` the finished match is written to a new file in the temporary folder for them.
- Seats are shown counted from 1, as the page counts them (:mod:`.seats`).
"""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
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
from cardhall.terminal.screen import WIDTH, screen
from cardhall.terminal.seats import seat_name, seat_names
from cardhall.terminal.style import Style
from cardhall.terminal.wrap import print_wrapped

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
        # Wrapped at words to the terminal's width (80 columns at most, and when it is not a terminal),
        # measured as the terminal draws Bengali (:mod:`.wrap`).
        print_wrapped(self.console, markup, WIDTH)

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
        title = f"{line * 2} {game.title} {dot} {game} {dot} you are {seat_name(self.me)} "
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
                raise CardhallError(
                    f"{table.game}: the table waits for {seat_names(list(table.waiting_for()))}"
                )
            action = self.ask()
            if action is None:
                self.leave()
                return 0
            table.apply(self.me, action)
            self.write_save()
            self.tell()
        self.finish()
        return 0

    def finish(self) -> None:
        """Where the finished match is kept, and the commands that review it and step through it (each
        on a line of its own, unbroken, to copy)."""
        path = self.save if self.save is not None else self.keep()
        quoted = shlex.quote(str(path))
        for text in (
            f"The match is saved in {path}.",
            "Review your play (what each of your decisions cost, from what you could see):",
            f"  cardhall review {quoted}",
            "Step through the match with every hand open:",
            f"  cardhall replay {quoted} --show",
        ):
            self.console.print(escape(text), highlight=False, soft_wrap=True)

    def keep(self) -> Path:
        """A finished match played without ``--save`` is written to a new file in the temporary folder
        (a save file: ``cardhall review`` reads the person's seat from it), so that the commands shown
        after it name a real file; nothing is written in the current folder unasked."""
        fd, name = tempfile.mkstemp(prefix=f"cardhall-{self.table.game.name}-", suffix=".json")
        os.close(fd)
        path = Path(name)
        bots: list[str | None] = [o.bot or None for o in self.table.seats]
        saved.write(path, self.table.record(), self.me, bots)
        return path

    def leave(self) -> None:
        table = self.table
        done = len(table.state.history)
        text = f"Left the table (you were {seat_name(self.me)}); seed {table.seed}, {done} actions."
        if self.save is not None:
            text += f" Continue with: cardhall play --resume {self.save}"
        self.console.print(escape(text), highlight=False, soft_wrap=True)  # a command to copy: unbroken

    def why(self, action: int) -> str:
        """The rules' reason an action is illegal now, said to the person (the engine's "hokm: seat 0 may
        not ..." names the seat as the API counts it: here it is "you may not ...")."""
        try:
            self.table.state.clone().apply(self.me, action)
        except CardhallError as e:
            text = str(e)
            engine = f"{self.table.game}: seat {self.me} may not "
            return "you may not " + text[len(engine) :] if text.startswith(engine) else text
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
                    show_rules(self.console, table.game, self.lang, style=self.style)
                except CardhallError as e:
                    self.console.print(self.style.warn(str(e)), highlight=False, soft_wrap=True)
                    continue
                self.show_screen()
                self.show_menu(menu)
            elif answer.error:
                # One logical line, however long: the terminal wraps it, rich inserts no break.
                self.console.print(self.style.warn(answer.error), highlight=False, soft_wrap=True)
