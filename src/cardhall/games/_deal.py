"""Shuffling, and dealing hidden cards again under constraints (for ``resample``), in every game.

A seat may be known not to hold certain cards (it showed a void, it passed them, they were seen
elsewhere). :func:`deal_constrained` hands out the unknown cards so that every seat gets exactly its
number of cards and none it is known not to hold. It deals greedily at random and repairs a dead end with
augmenting paths (bipartite matching), so it always succeeds when any consistent deal exists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

# (position, bound, bits) of each draw of ``random.shuffle`` for a deck of each size, made on first use.
_SHUFFLE_STEPS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


def shuffle_deck(deck: list[int], rng: random.Random) -> None:
    """``rng.shuffle(deck)``, drawing exactly the same numbers (so records and seeds keep their deals)
    without a Python call per card."""
    steps = _SHUFFLE_STEPS.get(len(deck))
    if steps is None:
        steps = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, len(deck))))
        _SHUFFLE_STEPS[len(deck)] = steps
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


class NoConsistentDeal(ValueError):
    """No deal satisfies the constraints (the constraints contradict each other)."""


def deal_constrained(
    cards: Sequence[int],
    sizes: Sequence[int],
    excluded: Sequence[int],
    rng: random.Random,
) -> list[list[int]]:
    """Split ``cards`` into piles of ``sizes``; pile ``i`` never gets a card whose bit is in
    ``excluded[i]`` (a bitmask over card ints). Random, and valid whenever a valid split exists."""
    if sum(sizes) != len(cards):
        raise NoConsistentDeal(f"{len(cards)} cards cannot fill piles of {list(sizes)}")
    order = list(cards)
    rng.shuffle(order)
    piles: list[list[int]] = [[] for _ in sizes]
    room = list(sizes)
    stuck: list[int] = []
    for c in order:
        bit = 1 << c
        choices = [i for i, r in enumerate(room) if r and not excluded[i] & bit]
        if not choices:
            stuck.append(c)
            continue
        total = sum(room[i] for i in choices)
        pick = rng.randrange(total)
        for i in choices:
            pick -= room[i]
            if pick < 0:
                break
        piles[i].append(c)
        room[i] -= 1
    for c in stuck:
        if not _place(c, piles, room, excluded, set(), None):
            raise NoConsistentDeal("the known voids and cards leave no consistent deal")
    return piles


def _place(
    card: int,
    piles: list[list[int]],
    room: list[int],
    excluded: Sequence[int],
    seen: set[int],
    source: int | None,
) -> bool:
    """Place ``card`` in a pile other than ``source``, moving cards along an augmenting path."""
    bit = 1 << card
    for i, r in enumerate(room):
        if i != source and r and not excluded[i] & bit:
            piles[i].append(card)
            room[i] -= 1
            return True
    for i, pile in enumerate(piles):
        if i == source or i in seen or excluded[i] & bit:
            continue
        seen.add(i)
        for j, other in enumerate(pile):
            pile[j] = card
            if _place(other, piles, room, excluded, seen, i):
                return True
            pile[j] = other
    return False
