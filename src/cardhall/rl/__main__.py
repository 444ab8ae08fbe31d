"""``python -m cardhall.rl GAME ...``: print each game string's encoder layout, as docs/rl.md shows it;
``python -m cardhall.rl --docs docs/rl.md``: write the layouts into that document.

The document ends with its layouts (after :data:`LAYOUTS_START`): one per game string it names, in its
order, and one for every registered game it does not name yet (appended at the end), so a new game's
layout is written there by this command, never by hand (``tests/rl/test_rl_encoders.py`` holds the tables
to the code).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from cardhall.registry import entries, load_game
from cardhall.rl.encoders import make_encoder

# The line after which docs/rl.md holds only the layouts.
LAYOUTS_START = "string's; `tests/rl/test_rl_encoders.py` keeps these tables in step with the code):"


def layouts(game_strings: list[str]) -> str:
    return "\n\n".join(make_encoder(load_game(game)).table() for game in game_strings)


def write_docs(path: Path) -> list[str]:
    """Rewrite the layouts of the document at ``path``; the game strings it now shows."""
    text = path.read_text(encoding="utf-8")
    head, marker, tail = text.partition(LAYOUTS_START)
    if not marker:
        raise SystemExit(f"{path}: no line {LAYOUTS_START!r} before the layouts")
    shown = re.findall(r"^Encoder for `([^`]+)`", tail, flags=re.M)
    shown += [name for name in entries() if name not in shown]
    path.write_text(f"{head}{marker}\n\n{layouts(shown)}\n", encoding="utf-8")
    return shown


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--docs":
        print(f"{argv[1]}: the layouts of {', '.join(write_docs(Path(argv[1])))}")
        return 0
    if not argv or argv[0].startswith("-"):
        print("usage: python -m cardhall.rl GAME [GAME ...]  (prints each game's encoder layout)")
        print("       python -m cardhall.rl --docs docs/rl.md  (writes every game's layout into it)")
        return 2
    print(layouts(argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
