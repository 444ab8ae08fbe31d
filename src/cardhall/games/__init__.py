"""One folder per game: its rules, its data, and the one place that registers it (its ``ENTRY``).

**Registration.** A game is a package here, ``games/<name>/``: its ``__init__.py`` holds ``ENTRY: Final =
GameEntry(...)``, the game class, what the layers above read of it (the game strings its benchmarks and
its conformance suite play, its golden playthroughs, a server's bounds, the search's decision weights)
and, by module path, every piece the layers above bring for it (its rules bot, its RL encoder, its
terminal narration); its rules are ``rules.py`` (and more modules if it needs them), and its files beside
them (texts, hints, option words, browser texts and table, schema, playthroughs), each named in
:mod:`cardhall.games.pieces`, which ``docs/adding-a-game.md`` is written from. :mod:`cardhall.registry`
finds the entries by scanning this package (a new game needs no edit anywhere else to be registered) and
every front end asks the registry for a game's pieces by the game's name, so nothing above this package
keeps a list of games. The pieces are named as strings because this layer must not import the layers above
it; ``tests/test_architecture.py`` checks that every registered game brings every piece of that list, each
in its own layer. ``cardhall new-game NAME --like hokm`` copies a game's folder under a new name.

**Rules only, standard library only.** Nothing here knows a bot, an encoder or a screen: a game says what
is legal, what happens, who may see what. The modules are compiled with mypyc
(:mod:`cardhall.engine_build` compiles every module of this package but the ``__init__`` ones and
``pieces``), which asks this of their code, so that the same source runs 2-3x faster compiled and
unchanged as plain Python:

- **A blank constructor, then ``start``.** A state class is built as ``State(game, seed)`` with every
  field set to a blank value there, and ``start(deck)`` deals; ``clone``, ``resample`` and
  ``sample_state`` build a blank state and fill it. A compiled class has a fixed set of attributes:
  every field is assigned in ``__init__`` (or a method it calls), none is added later.
- **``clone`` copies every field by name.** A compiled object has no ``__dict__`` to copy wholesale, and
  ``copy.copy`` would not know its slots; a field missed in ``clone`` is a bug the conformance suite's
  clone checks find.
- **``ruleset``, not ``game``, for the game's own class.** A compiled subclass may not narrow the type
  of an inherited attribute, so a state keeps its ``Game`` subclass (with the tables its options
  derive) in a second attribute, ``ruleset``, typed as that subclass.
- **Module tables are ``Final``.** mypyc then reads them as constants of the module, not through the
  module's dictionary on every use; a table that is computed (``TRUMP_STRENGTH``) is filled at import
  and never changed after.
- **``object`` parameters only at the checked boundary.** A compiled ``def f(seat: int)`` called with
  a bool or a string raises a bare ``TypeError`` before the body runs, so the public methods that must
  refuse a wrong type with the game's own error (``apply``, ``legal_actions``, ``action_info``,
  ``observation``) take ``object`` and check; everything inside takes ``int`` (boxing an ``object``
  on the hot path costs time), and an int's meaning is named by the aliases of :mod:`cardhall.cards`
  and :mod:`cardhall.core` (``Card``, ``Mask``, ``Seat``, ``Action``).
- **Direct calls on the hot path.** A method called on a typed local is a native call; a bound method
  kept in a variable, a lambda or a closure is a Python object and is called as one.
- **No monkeypatching.** A test cannot replace a compiled function or method; it builds the position it
  needs (``new_game(deck=...)``) instead.
- **A rebuild after every edit.** ``import cardhall`` refuses a compiled module whose source changed
  (:func:`cardhall.engine_build.check_compiled`); ``make`` rebuilds. A game written in plain Python
  outside this package can still subclass the compiled ``Game`` and ``State``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple

from cardhall.core import Game

# More folders of games than the installed ones: the directories named in CARDHALL_GAMES (separated as
# in PATH) are searched after this package's own, so a game written with ``cardhall new-game --into DIR``
# is registered, imported (``cardhall.games.<name>``) and played like the others.
__path__ = [*__path__, *(d for d in os.environ.get("CARDHALL_GAMES", "").split(os.pathsep) if d)]


class Playthrough(NamedTuple):
    """One golden playthrough of a game (``tests/test_playthroughs.py``): a seeded match written out as
    text in the game's folder, ``playthroughs/<name>.txt``."""

    name: str  # the file's name without ``.txt``
    game: str  # the game string, every option named (so a changed default changes no file)
    seed: int
    prefer: str = ""  # a label prefix the random policy takes when it can ("knock")


class Length(NamedTuple):
    """The options that set a match's length, for a server's bounds (:mod:`cardhall.server.bounds`):
    ``what`` names one option (``"target"``) or one option divided by another (``"stack / ante"``), and
    ``usual`` is its value at the defaults (a server accepts a few times that)."""

    what: str
    usual: int


class GameEntry(NamedTuple):
    """What one game brings, by the game's name (``game.name``): the rules, the data the layers above
    read of it, and each piece of the layers above as the module that holds it (a string: this layer
    imports none of them). The entry is ``ENTRY`` in the game's folder's ``__init__.py``; the files of the
    folder (texts, hints, schema, playthroughs...) are listed in :mod:`cardhall.games.pieces`.

    - ``rules_bot``: its rule-based player and what the search knows of it (``cardhall.bots.rules_<name>``:
      ``RULES_BOT``, optionally ``search_candidates`` and ``make_sampler``), and the review's verdict
      thresholds in its points (``review_thresholds``).
    - ``encoder``: its RL encoder (``cardhall.rl.encoders.<name>``: ``ENCODER``).
    - ``terminal``: how the terminal tells its table and its deal results
      (``cardhall.terminal.games.<name>``: ``seat_stats``, ``table_lines``, ``deal_scored``, optionally
      ``hand_line`` and ``EVENTS``, its own events' sentences).
    - ``bench``: the game strings ``cardhall bench`` plays for it (fixed, moderate lengths, so games/s
      means something and random play always ends).
    - ``conformance``: the game strings the conformance suite plays (short matches covering its options).
    - ``playthroughs``: its golden playthroughs (the files are in its folder's ``playthroughs/``).
    - ``max_actions``: the most actions a server's table of it plays before it is stopped (10 times the
      longest match measured at the server's bounds with rules bots).
    - ``length``: the options that set its match's length (None: its rules bound it).
    - ``decision_weights``: how much a search pays at each kind of decision, by phase, for the bot tier's
      scheduler (a phase not named weighs ``cardhall.bots.base.NEUTRAL_WEIGHT``, 1).
    - ``unit``: what its scores are counted in, as the review names them ("points", Svara's "chips").
    """

    game: type[Game]
    rules_bot: str
    encoder: str
    terminal: str
    bench: tuple[str, ...]
    conformance: tuple[str, ...]
    playthroughs: tuple[Playthrough, ...]
    max_actions: int
    length: Length | None = None
    decision_weights: Mapping[str, int] = {}
    unit: str = "points"


# The kinds of piece a GameEntry names by module path, and the package each must lie in.
PIECE_PACKAGES: dict[str, str] = {
    "rules_bot": "cardhall.bots",
    "encoder": "cardhall.rl.encoders",
    "terminal": "cardhall.terminal.games",
}

__all__ = ["PIECE_PACKAGES", "GameEntry", "Length", "Playthrough"]
