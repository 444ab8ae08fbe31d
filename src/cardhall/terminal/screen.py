"""The compact table a person sees before each choice, built from his observation alone.

Every game gets the same frame, small enough for an 80x24 terminal with the menu below it: one
header line, the seats (one a line, or two a line above four seats: who sits there, what is public
about him, his score), one or two lines of what lies on the table (trump, contract, the trick, the pot, the
discard pile), and the person's hand in the display order. The game-specific parts read only keys of
the observation (the game's ``schema.json``); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape

from cardhall.terminal.games import Obs, at, game_module
from cardhall.terminal.seats import seat_name
from cardhall.terminal.style import Style

WIDTH = 80


def _seat_stats(game: str, obs: Obs, seat: int, wide: bool) -> str:
    sizes = at(obs.get("hand_sizes"), seat)
    cards = "" if sizes is None else (f"{sizes} cards  " if wide else f"{sizes} cards ")
    score = f"score {at(obs.get('scores'), seat, 0)}" if wide else f"sc {at(obs.get('scores'), seat, 0)}"
    stats: str = game_module(game).seat_stats(obs, seat, wide, cards, score)
    return stats


def seat_lines(game: str, obs: Obs, names: Sequence[str], me: int | None, style: Style) -> list[str]:
    """One seat a line for up to four seats, two a line above that: ``>`` marks a seat to act, ``D``
    the dealer."""
    to_act = set(obs.get("to_act") or [])
    wide = len(names) <= 4
    cell = WIDTH if wide else WIDTH // 2
    cells = []
    for seat, name in enumerate(names):
        mark = ">" if seat in to_act else ("D" if obs.get("dealer") == seat else " ")
        size = 8 if wide else 6
        who = "you" if seat == me else name[:size]
        text = f"{mark} {seat_name(seat)} {who:<{size}} {_seat_stats(game, obs, seat, wide)}"[: cell - 1]
        cells.append(style.em(text.ljust(cell)) if seat == me else escape(text.ljust(cell)))
    per_line = 1 if wide else 2
    return ["".join(cells[k : k + per_line]).rstrip() for k in range(0, len(cells), per_line)]


def table_lines(game: str, obs: Obs, style: Style, me: int | None) -> list[str]:
    """What lies on the table (trump, contract, the trick, the pot, the discard pile): the game's own
    lines (its terminal module)."""
    lines: list[str] = game_module(game).table_lines(obs, style, me)
    return lines


def hand_line(game: str, obs: Obs, style: Style, new: Sequence[str] = ()) -> str:
    """The hand in the display order; ``new``: cards that came into it since the last screen (a draw,
    a pass received), named after it."""
    hand = obs.get("hand") or []
    shown = "Your hand: " + style.cards(hand, sort=True)
    came = f"  (new: {style.cards(list(new), sort=True)})" if new else ""
    module = game_module(game)
    if hasattr(module, "hand_line"):  # a game whose hand may be face down (Svara)
        line: str = module.hand_line(obs, style, shown, came)
        return line
    return shown + came


def screen(
    game: str, obs: Obs, names: Sequence[str], me: int | None, style: Style, new: Sequence[str] = ()
) -> list[str]:
    """The table as ``me`` sees it (without the menu): markup lines, each at most 80 columns wide."""
    lines = seat_lines(game, obs, names, me, style)
    lines += table_lines(game, obs, style, me)
    if me is not None:
        lines.append(hand_line(game, obs, style, new))
    return lines
