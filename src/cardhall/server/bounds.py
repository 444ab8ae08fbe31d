"""How long a match on this server may be: the options a server table accepts, and the most actions a
table plays before it is stopped.

The engine's options stay wide (``hokm(target=1000000000)`` is a fine simulation); a server table is
work done for people, so it accepts only matches of a length people play.

Choices:

- **Options that set a match's length** may be at most 3 times their default on a server; the others are
  the engine's. Each game names them in its entry (``length``: a ``target``, or a starting ``stack``
  counted in antes, ``stack / ante``, where a match lasts until one player holds nearly every chip); a
  game whose rules bound its length (a fixed number of deals) names none. ``max_hands`` / ``max_deals``
  only ever shorten a match, so any value is accepted. A game string beyond a bound is refused
  (``bad_game``) naming the option and its bound.
- **A cap on actions per table**, for what no option bounds: a match whose scores drift below zero between
  failed contracts (easy bots never reach the target), hands that go void, bots that never fold. Each
  game's entry holds its cap (``max_actions``), 10 times the longest match measured at the server's bounds
  with rules bots (40 matches each, rounded up; the measurement beside it), so a match people play never
  meets it: at a person's pace even the smallest cap is hours of play. It bounds what bots alone can do
  (at ``bot_pace_ms`` 0, with the person gone), and it stops a table stored before the bounds that came
  back after a restart. A table that reaches it is stopped (``abandoned``) like one the operator stops
  (:meth:`cardhall.server.host.TableHost.halt`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.options import OptionValue
from cardhall.registry import entries

# How many times its default an option that sets a match's length may be on a server.
LENGTH_FACTOR: Final = 3


@dataclass(frozen=True)
class Bound:
    """A quantity of a game's options that sets its match's length, and the most a server takes."""

    game: str
    what: str  # as the protocol document names it: "target", "stack / ante"
    value: Callable[[Mapping[str, OptionValue]], int]
    maximum: int


def _quantity(what: str) -> Callable[[Mapping[str, OptionValue]], int]:
    """The value of ``what`` over a game's options: one option (``"target"``), or one divided by
    another (``"stack / ante"``)."""
    names = [part.strip() for part in what.split("/")]
    if len(names) == 1:
        return lambda options: int(options[names[0]])
    top, bottom = names
    return lambda options: int(options[top]) // int(options[bottom])


# Each game's bound and cap are its own data (its entry's ``length`` and ``max_actions``, in its folder);
# the server's policy is the factor and what it does at the bound and the cap.
BOUNDS: Final = tuple(
    Bound(name, e.length.what, _quantity(e.length.what), LENGTH_FACTOR * e.length.usual)
    for name, e in entries().items()
    if e.length is not None
)

# The most actions a table plays, per game (measured: see the module's docstring and each game's entry).
MAX_ACTIONS: Final = {name: e.max_actions for name, e in entries().items()}


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
