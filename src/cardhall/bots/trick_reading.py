"""What a trick game's observation (ints form) tells a bot about the cards: every card played this
deal, and the suits each seat has shown it lacks (it did not follow the suit led)."""

from __future__ import annotations

from typing import Any


def played_and_voids(
    tricks: list[dict[str, Any]], trick: list[dict[str, int]], players: int
) -> tuple[int, list[int]]:
    """The mask of the cards in ``tricks`` (each ``{"cards": [{"seat", "card"}, ...]}``) and in the
    ``trick`` on the table, and per seat the suits (a bit per suit) it failed to follow."""
    played = 0
    voids = [0] * players
    for cards in [*(t["cards"] for t in tricks), trick]:
        if not cards:
            continue
        led = cards[0]["card"] // 13
        for p in cards:
            c = p["card"]
            played |= 1 << c
            if c // 13 != led:
                voids[p["seat"]] |= 1 << led
    return played, voids
