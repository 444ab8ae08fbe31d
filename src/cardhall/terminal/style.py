"""How cards and labels look on the person's terminal, and the one sort order used everywhere.

Decisions: cards are ``Q♠ 10♥`` with hearts and diamonds in red when the terminal has colour and
Unicode; plain ``QS 10H`` (no colour at all) with ``--ascii`` or when standard output cannot encode the
suit symbols. Everything is written as rich markup, so any other text is escaped here. The sort order:
suits spades, hearts, clubs, diamonds (the colours alternate), high rank first within a suit; the hand
and the numbered choices of card actions follow it.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from cardhall.cards import SUITS, format_card, parse_card, rank_of, suit_of
from cardhall.errors import InvalidCardError

SUIT_ORDER = "SHCD"
_PRETTY_CARD = re.compile(r"(10|[2-9JQKA]|)([♣♦♥♠])")
_RED = {SUITS.index("H"), SUITS.index("D")}


def card_of(text: str) -> int | None:
    """The card a word names (``"QS"``, ``"10♥"``), or None when it names none."""
    if len(text) < 2:
        return None
    try:
        return parse_card(text)
    except InvalidCardError:
        return None


def sort_key(card: int) -> tuple[int, int]:
    return SUIT_ORDER.index(SUITS[suit_of(card)]), -rank_of(card)


def sorted_cards(texts: list[str]) -> list[str]:
    """Card texts in the display order (texts that are not cards keep their place at the end)."""
    cards = [(card_of(t), t) for t in texts]
    known = sorted((c for c in cards if c[0] is not None), key=lambda c: sort_key(c[0] or 0))
    return [t for _, t in known] + [t for c, t in cards if c is None]


def unicode_ok(stream: object = None) -> bool:
    """Whether ``stream`` (default standard output) can write the suit symbols."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or ""
    try:
        "♠♥♣♦".encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


@dataclass(frozen=True)
class Style:
    """``pretty``: suit symbols; ``colour``: red and black cards (only with ``pretty``)."""

    pretty: bool = True
    colour: bool = True

    def card(self, text: str) -> str:
        """A card text as markup (anything that is not a card is only escaped)."""
        c = card_of(text)
        if c is None:
            return escape(text)
        shown = format_card(c, pretty=self.pretty)
        if self.colour and self.pretty:
            return f"[bold red]{shown}[/]" if suit_of(c) in _RED else f"[bold]{shown}[/]"
        return shown

    @staticmethod
    def card_text(card: int) -> str:
        """The canonical text of a card int (a second deck's copy reads as its face)."""
        return format_card(card)

    def cards(self, texts: list[str], sort: bool = False) -> str:
        return " ".join(self.card(t) for t in (sorted_cards(texts) if sort else texts)) or "-"

    def label(self, text: str) -> str:
        """An action label with its cards styled: ``play QS`` -> ``play Q♠``."""
        words = text.split(" ")
        if len(words) == 2 and words[0] == "trump" and words[1] in SUITS:  # "trump S" names a suit
            return f"trump {self.suit(words[1])}"
        return " ".join(self.card(w) if card_of(w) is not None else escape(w) for w in words)

    def suit(self, letter: str) -> str:
        """A suit letter (``"C"``) as its symbol (or the letter in ASCII)."""
        if letter not in SUITS or not self.pretty:
            return escape(letter)
        symbol = "♣♦♥♠"[SUITS.index(letter)]
        red = SUITS.index(letter) in _RED
        return f"[bold red]{symbol}[/]" if self.colour and red else symbol

    def text(self, text: str) -> str:
        """Prose (a hint, the rules) for this terminal: ``Q♠`` written ``QS`` when only ASCII is shown."""
        if self.pretty:
            return text
        return _PRETTY_CARD.sub(lambda m: m.group(1) + SUITS["♣♦♥♠".index(m.group(2))], text)

    def em(self, text: str) -> str:
        return f"[bold]{escape(text)}[/]" if self.colour else escape(text)

    def warn(self, text: str) -> str:
        return f"[red]{escape(text)}[/]" if self.colour else escape(text)


def terminal_style(console: Console, ascii_only: bool) -> Style:
    """The style a console can show: suit symbols if it can encode them (and not ``ascii_only``),
    colour if it also has colour (rich's detection: a terminal, ``NO_COLOR`` unset)."""
    pretty = not ascii_only and unicode_ok(console.file)
    return Style(pretty=pretty, colour=pretty and console.color_system is not None)
