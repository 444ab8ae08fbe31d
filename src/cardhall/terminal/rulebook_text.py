"""The rules texts and phase hints of :mod:`cardhall.rulebook`, rendered for the terminal.

``rules_text`` is a Markdown subset (headings, paragraphs, ``-`` lists, ``**bold**``), rendered with
rich; the options in force are listed under it from the game itself, so a person reads the rules of
the very game he plays.
"""

from __future__ import annotations

from rich.console import Console
from rich.markdown import Markdown

from cardhall import rulebook
from cardhall.core import Game
from cardhall.errors import CardhallError, InvalidOptionError
from cardhall.options import format_value


def rules_markdown(game: Game, lang: str = "en") -> str:
    try:
        return rulebook.rules_text(game.name, lang=lang)
    except OSError:  # a language the rulebook names but has no text of for this game yet
        raise InvalidOptionError(f"{game.name}: no rules text in language {lang!r} yet") from None


def options_line(game: Game) -> str:
    opts = ", ".join(f"{o.name}={format_value(game.option(o.name))}" for o in game.option_spec)
    return f"Options in force: {opts}" if opts else "This game has no options."


def show_rules(console: Console, game: Game, lang: str = "en", plain: bool = False) -> None:
    text = rules_markdown(game, lang)
    if plain:
        console.print(text, markup=False, highlight=False)
    else:
        console.print(Markdown(text), width=min(console.width, 80))  # a readable measure, piped or not
    console.print(options_line(game), markup=False, highlight=False, width=min(console.width, 80))


def phase_hint(game: Game, phase: str, lang: str = "en") -> str:
    """One sentence on what is being decided in ``phase`` ("" when the rulebook has none)."""
    if not phase:
        return ""
    try:
        return rulebook.phase_hint(game.name, phase, lang=lang)
    except (CardhallError, OSError):
        return ""
