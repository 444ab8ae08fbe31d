"""The numbered choices of a turn, and reading what the person types.

Decisions:

- The choices are the legal actions of the Game API with its labels, in the display order of
  :mod:`.style` for card actions (so the menu and the hand agree), other actions first in the game's
  own order.
- A verb with many amounts (Svara's ``raise 20`` ... ``raise 980``) is not listed in full: the menu keeps
  the common amounts (the minimum, double it, about the pot, the maximum) and says which amounts may be
  typed (``raise 250``). Any legal action can always be typed by its label, or a card alone (``QS``).
- An answer is a menu number, a label, or a command: ``help``/``?``, ``rules``, ``quit``. Anything else
  gets one line naming what was wrong, and the person is asked again.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cardhall.core import Game
from cardhall.errors import CardhallError
from cardhall.terminal.style import Style, card_of, sort_key

COMMANDS = {
    "help": "help",
    "?": "help",
    "h": "help",
    "rules": "rules",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
}
MAX_AMOUNTS = 12  # above this many amounts of one verb, the menu shows the common ones only


@dataclass(frozen=True)
class Amounts:
    """The amounts one verb may take now: ``raise`` from ``low`` to ``high`` in steps of ``step``."""

    verb: str
    low: int
    high: int
    step: int

    def describe(self) -> str:
        steps = f" in steps of {self.step}" if self.step > 1 else ""
        return f"'{self.verb} N' with N from {self.low} to {self.high}{steps}"


@dataclass
class Menu:
    entries: list[tuple[int, str]]  # (action, label), numbered from 1
    amounts: list[Amounts] = field(default_factory=list)

    def lines(self, style: Style, width: int = 80) -> list[str]:
        texts = [
            (f"{k:>2}. {label}", f"{k:>2}. {style.label(label)}")
            for k, (_, label) in enumerate(self.entries, 1)
        ]
        cell = max((len(plain) for plain, _ in texts), default=0) + 2
        per_line = max(1, min(len(texts), width // max(cell, 1)))
        if len(texts) <= 4 and sum(len(p) + 2 for p, _ in texts) <= width:
            per_line = len(texts) or 1
        out = []
        for k in range(0, len(texts), per_line):
            row = texts[k : k + per_line]
            out.append("".join(shown + " " * (cell - len(plain)) for plain, shown in row).rstrip())
        for a in self.amounts:
            out.append(f"    or type {a.describe()}")
        return out


def _amount(label: str) -> tuple[str, int] | None:
    verb, _, tail = label.rpartition(" ")
    return (verb, int(tail)) if verb and tail.isdigit() else None


def _common(amounts: list[int], pot: int | None) -> list[int]:
    """The minimum, double it, about the pot, and the maximum, among the legal amounts."""
    low, high = amounts[0], amounts[-1]
    wanted = [low, 2 * low] + ([pot] if pot else []) + [high]
    picked = {min(amounts, key=lambda a: (abs(a - w), a)) for w in wanted}
    return sorted(picked)


def build_menu(game: Game, legal: Sequence[int], pot: int | None = None) -> Menu:
    labels = [(a, game.action_label(a)) for a in legal]
    by_verb: dict[str, list[tuple[int, int, str]]] = {}
    for action, label in labels:
        parsed = _amount(label)
        if parsed is not None:
            by_verb.setdefault(parsed[0], []).append((parsed[1], action, label))
    cut = {verb for verb, items in by_verb.items() if len(items) > MAX_AMOUNTS}
    amounts = []
    keep: set[int] = set()
    for verb in cut:
        items = sorted(by_verb[verb])
        values = [v for v, _, _ in items]
        steps = {b - a for a, b in itertools.pairwise(values)}
        amounts.append(Amounts(verb, values[0], values[-1], min(steps) if steps else 1))
        common = set(_common(values, pot))
        keep |= {action for v, action, _ in items if v in common}
    entries = []
    cards = []
    for action, label in labels:
        parsed = _amount(label)
        if parsed is not None and parsed[0] in cut and action not in keep:
            continue
        card = card_of(label.rsplit(" ", 1)[-1]) if " " in label else None
        if card is None:
            entries.append((action, label))
        else:
            cards.append((sort_key(card), action, label))
    entries += [(action, label) for _, action, label in sorted(cards)]
    return Menu(entries, sorted(amounts, key=lambda a: a.verb))


@dataclass(frozen=True)
class Answer:
    """What a typed line meant: an ``action``, a ``command``, or an ``error`` (one line)."""

    action: int | None = None
    command: str | None = None
    error: str | None = None


def read_answer(
    text: str, menu: Menu, game: Game, legal: Sequence[int], why: Callable[[int], str] | None = None
) -> Answer:
    """``why``: the rules' reason an action is illegal now (the game's own message)."""
    words = text.strip()
    if not words:
        return Answer(error=f"type a number from 1 to {len(menu.entries)}, an action, or 'help'")
    command = COMMANDS.get(words.lower())
    if command:
        return Answer(command=command)
    if words.isdigit():
        k = int(words)
        if 1 <= k <= len(menu.entries):
            return Answer(action=menu.entries[k - 1][0])
        return Answer(error=f"{k} is not in the list: choose 1 to {len(menu.entries)}")
    try:
        action = game.parse_action(words)
    except CardhallError as e:
        typed = _amount(" ".join(words.lower().split()))
        amounts = next((a for a in menu.amounts if typed and typed[0] == a.verb), None)
        if amounts is not None:
            return Answer(error=f"{words!r} is not an amount you may use now: type {amounts.describe()}")
        return Answer(error=str(e))
    if action not in legal:
        label = game.action_label(action)
        hint = next((a.describe() for a in menu.amounts if label.startswith(a.verb + " ")), None)
        reason = f": type {hint}" if hint else (f": {why(action)}" if why else "")
        return Answer(error=f"'{label}' is not legal now{reason}")
    return Answer(action=action)
