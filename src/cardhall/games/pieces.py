"""What a game brings: the one list of its pieces, which ``tests/test_architecture.py`` enforces for every
registered game and ``docs/adding-a-game.md`` shows (``python -m cardhall.games.pieces`` writes its
table; a test holds the document to this list, so the two cannot disagree).

A piece is one of five kinds, by where it lives (:data:`KINDS`): a file of the game's folder
(``games/<name>/``), a field of its entry (``ENTRY``, :class:`cardhall.games.GameEntry`), a module of a
layer above the rules that its entry names, a test file, or a document written by a command. ``where``
is the piece's place with ``<name>`` for the game's name and ``<lang>`` for each language of the texts
(en, bn); a piece that is not ``required`` may be left out (the game then gets the shared default).

Standard library only: it is read by the architecture test, by the document's writer, and by nothing
at run time.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final, NamedTuple


class Piece(NamedTuple):
    kind: str  # one of KINDS
    where: str  # its place: a file name of the folder, an entry field, a module path, a path from the root
    holds: str  # what it holds, and what reads it (Markdown, one line)
    required: bool = True


# Each kind of piece, and how the table of the document names it.
KINDS: Final = {
    "file": "a file of `src/cardhall/games/<name>/`",
    "entry": "a field of its `ENTRY` (in its folder's `__init__.py`)",
    "module": "a module its `ENTRY` names (a layer above the rules)",
    "test": "a test file",
    "written": "a document a command writes",
}

PIECES: Final = (
    Piece(
        "file",
        "__init__.py",
        "`ENTRY: Final = GameEntry(...)`: the game's registration, read by `cardhall.registry`'s scan of "
        "`cardhall.games` (a new folder needs no edit anywhere else)",
    ),
    Piece(
        "file",
        "rules.py",
        "a `Game` and a `State` subclass: rules only, standard library only, compiled with mypyc (the rules "
        "in `cardhall/games/__init__.py`'s docstring); the docstring lists every rule choice where the rules "
        "of record leave room; `rules_version` (bump it on any change of the rules: records of another "
        "version do not replay). Besides what `cardhall.core`'s `Game` and `State` ask of every game: "
        "**`Game.sample_state`** (a state the observing seat cannot tell from the true one; without it the "
        "`search` bot, the `hard` level, hints and reviews stop with NotImplementedError), optionally "
        "**`Game.deal_replay`** (a sampled state rewound to the start of its deal, with the deal's public "
        "actions: the `expert` bot then weighs its samples by how likely the others' play makes them; "
        "without it they weigh alike) and the events "
        "the conformance suite requires, each in the schema: **`deal`** when a deal starts and "
        "**`deal_scored`** when it is scored (as many of each as `deals_finished`); the Table adds one "
        "`action` per action (hidden only from the seats `action_audience` leaves out, never from the actor) "
        "and `match_over` (scores, winners) last. More modules beside it if it needs them "
        "(`melds.py`)",
    ),
    Piece(
        "file",
        "rulebook.<lang>.md",
        "its rules in the project's own words, read by `cardhall rules`, the terminal and the browser's "
        "rules page (`cardhall.rulebook`, whose docstring gives the Markdown subset). "
        "`tests/rulebook/test_rulebook.py` holds each text to **400 to 900 words**, the Bengali one "
        "**mirroring the English block by block** "
        "(the same headings of the same levels, paragraphs, lists of as many items, the same numbers in "
        "each block), a last section naming every option in bold by its code with the rule it changes",
    ),
    Piece(
        "file",
        "hints.<lang>.json",
        '`{"phases": {phase: sentence}}`: one sentence per phase its schema lists (and `"deals"` for named '
        "deals), the same keys in both languages (`cardhall.rulebook.phase_hint`)",
    ),
    Piece(
        "file",
        "options.<lang>.json",
        "each option's `title`, `help` and, for options whose values are words, `values` (value -> words): "
        "the lobby's create form and the rules page (`cardhall.rulebook.option_text`, `GET /api/games`)",
    ),
    Piece(
        "file",
        "i18n.<lang>.json",
        "its browser texts: `game.<name>.title`, `game.<name>.blurb` and the keys its table asks for "
        "(`<name>.…`); the server sends them merged into the page's catalogue `/static/i18n/<lang>.json` "
        "(`cardhall.server.client_games`)",
    ),
    Piece(
        "file",
        "schema.json",
        "the JSON Schema of its observation, its events and `$defs.action_info`, every key explained "
        "(`$id` `https://cardhall.invalid/schema/<name>.json`; the conformance suite validates against it)",
    ),
    Piece(
        "file",
        "playthroughs/<name>-*.txt",
        "its golden playthroughs, one per spec of `ENTRY.playthroughs`, written by "
        "`python tests/playthroughs/regenerate.py` (`tests/test_playthroughs.py` plays them again)",
    ),
    Piece(
        "file",
        "web.js",
        "its browser table: `export const <name> = { ...base, ... }`, what differs from `web/games/base.js`, "
        "served at `/static/games/<name>.js` (without one the table is `base.js`)",
        required=False,
    ),
    Piece("entry", "game", "the `Game` subclass (its `name` is the game's name)"),
    Piece(
        "entry",
        "bench",
        "the game strings `cardhall bench` plays (fixed, moderate lengths, so games/s means something)",
    ),
    Piece(
        "entry",
        "conformance",
        "the game strings the conformance suite plays (`tests/games/test_games_conformance.py`, or the "
        "game's own `tests/games/<name>/test_<name>_conformance.py` with its invariants)",
    ),
    Piece("entry", "playthroughs", "its golden playthroughs' specs: `Playthrough(name, game, seed)`"),
    Piece(
        "entry",
        "max_actions",
        "the most actions a server's table plays before it is stopped: 10 times the longest match "
        "measured with rules bots at the server's bounds (`cardhall.server.bounds`, `docs/protocol.md`)",
    ),
    Piece(
        "entry",
        "length",
        '`Length("target", 500)`: the options that set a match\'s length and their usual value (a server '
        "takes at most 3 times it); none when the rules bound the length",
        required=False,
    ),
    Piece(
        "entry",
        "decision_weights",
        "**`decision_weights`** (the rules modules' `DECISION_WEIGHTS` before): how much a search pays at "
        "each phase's decision, for the bot tier's scheduler (`cardhall.bots.rules.decision_weight`; 1 "
        "where nothing measured says otherwise)",
    ),
    Piece(
        "entry", "unit", 'what its scores count, as the review says them (default "points")', required=False
    ),
    Piece(
        "module",
        "rules_bot",
        "`cardhall.bots.rules_<name>`: `RULES_BOT` (a `BaseBot`), `review_thresholds(game)` (inaccuracy, "
        "mistake, blunder in its points), optionally `search_candidates` and `make_sampler`",
    ),
    Piece(
        "module",
        "encoder",
        "`cardhall.rl.encoders.<name>`: `ENCODER` (an `Encoder`: `_define`, `_fill`, its layout tabled in "
        "its docstring), optionally `describe` and a faster `encode_state`",
    ),
    Piece(
        "module",
        "terminal",
        "`cardhall.terminal.games.<name>`: `seat_stats`, `table_lines`, `deal_scored`, optionally "
        "`hand_line` and `EVENTS` (its own events' sentences)",
    ),
    Piece(
        "test",
        "tests/games/<name>/test_<name>_rules.py",
        "scenario tests of every rule, from the rules of record",
    ),
    Piece(
        "test",
        "tests/games/<name>/test_<name>_events.py",
        "its events, per seat, against what each may see",
    ),
    Piece(
        "written",
        "docs/rl.md",
        "its encoder's layout: `python -m cardhall.rl --docs docs/rl.md` writes it (and by hand: "
        "`README.md`'s \"The games\" its game string, players and one line; `docs/players-guide.md`'s "
        '"The games" its main rule choices)',
    ),
)

# The document's table lies between these two lines, written by write_doc.
BEGIN: Final = "<!-- the pieces: written by `python -m cardhall.games.pieces docs/adding-a-game.md` -->"
END: Final = "<!-- end of pieces -->"


def table() -> str:
    """The pieces as the document's Markdown table."""
    lines = ["| piece | kind | what it holds |", "|---|---|---|"]
    for piece in PIECES:
        place = f"`{piece.where}`" + ("" if piece.required else " (optional)")
        lines.append(f"| {place} | {KINDS[piece.kind]} | {piece.holds} |")
    return "\n".join(lines)


def with_table(document: str) -> str:
    """``document`` with its table (between :data:`BEGIN` and :data:`END`) written from :data:`PIECES`."""
    head, begin, rest = document.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not (begin and end):
        raise ValueError("the document has no lines for the table of pieces")
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m cardhall.games.pieces docs/adding-a-game.md  (writes its table of pieces)")
        return 2
    path = Path(argv[0])
    path.write_text(with_table(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
