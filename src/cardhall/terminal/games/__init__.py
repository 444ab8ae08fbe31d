"""Each game's part of the terminal game, one module per game: the ``terminal`` piece of its
registration (:class:`cardhall.games.GameEntry`, ``cardhall.terminal.games.<name>``), found by the
game's name through :mod:`cardhall.registry`, never from a list here.

A game's module gives, reading only keys of the observation or the event (the game's ``schema.json``):

- ``seat_stats(obs, seat, wide, cards, score) -> str``: what is public about a seat, after its name
  (``cards`` and ``score``: the shared "10 cards" and "score 40" texts, to use or not);
- ``table_lines(obs, style, me) -> list[str]``: what lies on the table (trump, contract, the trick,
  the pot, the discard pile);
- ``deal_scored(nr, event) -> list[str]``: a deal's result, seat by seat, between the heading and the
  totals;
- optionally ``hand_line(obs, style, shown, new) -> str``: the hand line as the game tells it
  (``shown``: the shared one, ``new``: the cards new in the hand, told after it), for a game whose
  hand may be face down (Svara);
- optionally ``EVENTS``: its own events (those not every game has), type -> ``(nr, event) -> list[str]``,
  its sentences (:func:`cardhall.terminal.narrate.handler_of`).

The helpers they share are here.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from cardhall.registry import piece

if TYPE_CHECKING:
    from cardhall.terminal.style import Style

Obs = dict[str, Any]


def game_module(name: str) -> ModuleType:
    """The terminal module of the game ``name`` (InvalidOptionError for a game without one)."""
    return piece(name, "terminal")


def at(values: Any, seat: int, default: Any = None) -> Any:
    """``values[seat]`` of a per-seat list in an observation, or ``default``."""
    return values[seat] if isinstance(values, list) and seat < len(values) else default


def trick_line(obs: Obs, style: Style, me: int | None) -> str:
    plays = obs.get("trick") or []
    shown = "  ".join(
        ("you" if p["seat"] == me else str(p["seat"] + 1)) + " " + style.card(p["card"]) for p in plays
    )
    return "Trick: " + (shown or "(empty)")


def signed(v: int) -> str:
    return f"{v:+d}"


__all__ = ["Obs", "at", "game_module", "signed", "trick_line"]
