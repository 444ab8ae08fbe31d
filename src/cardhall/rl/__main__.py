"""``python -m cardhall.rl GAME ...``: print each game string's encoder layout, as docs/rl.md shows it."""

from __future__ import annotations

import sys

from cardhall.registry import load_game
from cardhall.rl.encoders import make_encoder


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m cardhall.rl GAME [GAME ...]  (prints each game's encoder layout)")
        return 2
    print("\n\n".join(make_encoder(load_game(game)).table() for game in argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
