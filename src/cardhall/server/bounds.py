"""How long a match on this server may be: the options a server table accepts, and the most actions a
table plays before it is stopped.

The engine's options stay wide (``hokm(target=1000000000)`` is a fine simulation); a server table is
work done for people, so it accepts only matches of a length people play.

Choices:

- **Options that set a match's length** may be at most 3 times their default on a server; the others are
  the engine's. Per game: Hokm's, Hearts' and gin's ``target``; Svara's starting ``stack`` counted in
  antes (``stack / ante``: a match lasts until one player holds nearly every chip); Kierki has none (12
  deals at most, by its rules). ``max_hands`` / ``max_deals`` only ever shorten a match, so any value
  is accepted. A game string beyond a bound is refused (``bad_game``) naming the option and its bound.
- **A cap on actions per table**, for what no option bounds: a Hokm match whose scores drift below
  zero between failed contracts (easy bots never reach 500), gin hands that go void, Svara bots that
  never fold. It is 10 times the longest match measured at the server's bounds with rules bots (40
  matches each, rounded up; Svara from 4 players at the default stack, since eight players at the
  largest stack play for hours between bots), so a match people play never meets it: at a person's pace
  even the smallest cap is hours of play. It bounds what bots alone can do (at ``bot_pace_ms`` 0, with
  the person gone), and it stops a table stored before the bounds that came back after a restart. A
  table that reaches it is stopped (``abandoned``) like one the operator stops
  (:meth:`cardhall.server.host.TableHost.halt`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.options import OptionValue

# How many times its default an option that sets a match's length may be on a server.
LENGTH_FACTOR: Final = 3


@dataclass(frozen=True)
class Bound:
    """A quantity of a game's options that sets its match's length, and the most a server takes."""

    game: str
    what: str  # as the protocol document names it: "target", "stack / ante"
    value: Callable[[Mapping[str, OptionValue]], int]
    maximum: int


def _option(name: str) -> Callable[[Mapping[str, OptionValue]], int]:
    return lambda options: int(options[name])


BOUNDS: Final = (
    Bound("hokm", "target", _option("target"), LENGTH_FACTOR * 500),
    Bound("hearts", "target", _option("target"), LENGTH_FACTOR * 150),
    Bound("gin", "target", _option("target"), LENGTH_FACTOR * 100),
    Bound("svara", "stack / ante", lambda o: int(o["stack"]) // int(o["ante"]), LENGTH_FACTOR * 100),
)

# The most actions a table plays, per game (measured: see the module's docstring and the README).
MAX_ACTIONS: Final = {
    "hokm": 40_000,  # target 1500, rules bots: at most 3,638 actions in 40 matches
    "hearts": 120_000,  # 11 players, target 450: at most 10,956
    "gin": 15_000,  # target 300: at most 1,452
    "kierki": 7_000,  # 12 deals: at most 645
    "svara": 300_000,  # 4 players, 100 antes: at most 22,460 (8 players at 300 antes: hours of bots)
}


def check(game: Game) -> None:
    """Refuse (:class:`InvalidOptionError`, naming the option and the bound) a game whose match would be
    longer than a server table accepts."""
    for bound in BOUNDS:
        if bound.game == game.name:
            value = bound.value(game.options)
            if value > bound.maximum:
                raise InvalidOptionError(
                    f"{game.name}: {bound.what} {value} is beyond what this server plays "
                    f"(at most {bound.maximum}, {LENGTH_FACTOR} times the default)"
                )


def max_actions(game_name: str) -> int:
    """The most actions a table of ``game_name`` plays before it is stopped."""
    return MAX_ACTIONS.get(game_name, 50_000)
