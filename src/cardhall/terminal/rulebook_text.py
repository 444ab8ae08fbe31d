"""The rules texts and phase hints of :mod:`cardhall.rulebook`, rendered for the terminal.

``rules_text`` is a Markdown subset (headings, paragraphs, ``-`` lists, ``**bold**``; see
:mod:`cardhall.rulebook`), rendered here line by line rather than by rich's Markdown, which measures
Bengali too narrow (:mod:`.wrap`): a heading is a bold line, a paragraph is wrapped at words to at most 80
columns, a list item hangs under its bullet; one blank line between blocks. The options in force are listed
under it from the game itself, so a person reads the rules of the very game he plays.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.markup import escape

from cardhall import rulebook
from cardhall.core import Game
from cardhall.errors import CardhallError, InvalidOptionError
from cardhall.options import format_value
from cardhall.terminal.style import Style, terminal_style
from cardhall.terminal.wrap import print_wrapped

_BOLD = re.compile(r"\*\*(.+?)\*\*")


def rules_markdown(game: Game, lang: str = "en") -> str:
    try:
        return rulebook.rules_text(game.name, lang=lang)
    except OSError:  # a language the rulebook names but has no text of for this game yet
        raise InvalidOptionError(f"{game.name}: no rules text in language {lang!r} yet") from None


def options_line(game: Game) -> str:
    opts = ", ".join(f"{o.name}={format_value(game.option(o.name))}" for o in game.option_spec)
    return f"Options in force: {opts}" if opts else "This game has no options."


def _markup(line: str, style: Style) -> str:
    """One line of the subset as rich markup: ``**bold**`` bold, everything else as text."""
    return _BOLD.sub(r"[bold]\1[/bold]", escape(style.text(line)))


def show_rules(
    console: Console, game: Game, lang: str = "en", plain: bool = False, style: Style | None = None
) -> None:
    """The rules of ``game`` in ``lang``, then the options in force; ``plain``: the Markdown source as it
    is. ``style``: what the terminal shows (suit symbols or letters; default: what ``console`` can)."""
    text = rules_markdown(game, lang)
    if plain:
        console.print(text, markup=False, highlight=False)
        console.print(options_line(game), markup=False, highlight=False)
        return
    style = style or terminal_style(console, ascii_only=False)
    bullet = "• " if style.pretty else "- "
    for block in text.strip().split("\n\n"):
        lines = block.strip().splitlines()
        if lines[0].startswith("#"):
            heading = lines[0].lstrip("#").strip()
            console.print(f"[bold]{escape(style.text(heading))}[/bold]", soft_wrap=True, highlight=False)
        elif lines[0].startswith("- "):
            for item in lines:
                print_wrapped(console, _markup(item[2:], style), indent=" " + bullet, hanging="   ")
        else:
            print_wrapped(console, _markup(" ".join(lines), style))
        console.print()
    print_wrapped(console, escape(options_line(game)))


def phase_hint(game: Game, phase: str, lang: str = "en") -> str:
    """One sentence on what is being decided in ``phase`` ("" when the rulebook has none)."""
    if not phase:
        return ""
    try:
        return rulebook.phase_hint(game.name, phase, lang=lang)
    except (CardhallError, OSError):
        return ""
