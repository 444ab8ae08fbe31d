"""Svara hand values: the points of a 3-card hand from the 32-card deck.

Rules: ``rulebook.en.md`` (beside it).

Card points: 7, 8, 9 = face value; 10, J, Q, K = 10; A = 11. The 7 of clubs is the joker. A hand is worth
the highest of: a suit sum (the points of the cards of one suit; the joker adds 11 to any suit), aces
(2 aces = 22, 3 aces = 33, 2 aces + joker = 33, 1 ace + joker = 22), two sevens = 23 (the joker counts as
a seven), three of a kind = 3 x points, three sevens = 34, joker + a pair = 2 x pair points + 11, or the
best single card (the joker is worth 11).

``joker="substitute"`` (the rules' variant): the 7 of clubs stands for any card of the deck not already in
the hand (or for itself), and the hand is worth the best such choice under the same rules without the
joker's own bonuses (7♣ K♥ K♦ = 30: three kings).

Every value is precomputed for all 4,960 hands, keyed by the bitmask of the hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Final

from cardhall.cards import ACE, CLUBS, SEVEN, mask_of, parse_card, rank_of, suit_of
from cardhall.errors import InvalidCardError

RANKS32: Final = tuple(range(SEVEN, ACE + 1))  # 7 8 9 10 J Q K A
DECK: Final = sorted(s * 13 + r for s in range(4) for r in RANKS32)
DECK_MASK: Final = mask_of(DECK)
JOKER: Final = CLUBS * 13 + SEVEN
JOKER_MODES: Final = ("standard", "substitute")

# Points by rank index (2..A): 7 8 9 face value, 10 J Q K ten, A eleven.
POINTS: Final = (0, 0, 0, 0, 0, 7, 8, 9, 10, 10, 10, 10, 11)


def _plain_value(cards: tuple[int, ...]) -> int:
    """The value with no card special (the 7 of clubs a plain seven); cards may repeat a face."""
    ranks = [rank_of(c) for c in cards]
    best = max(POINTS[r] for r in ranks)
    for s in range(4):
        best = max(best, sum(POINTS[rank_of(c)] for c in cards if suit_of(c) == s))
    aces = ranks.count(ACE)
    if aces >= 2:
        best = max(best, 11 * aces)
    sevens = ranks.count(SEVEN)
    if sevens == 2:
        best = max(best, 23)
    if sevens == 3:
        return 34
    if ranks[0] == ranks[1] == ranks[2]:
        best = max(best, 3 * POINTS[ranks[0]])
    return best


def _standard_value(cards: tuple[int, ...]) -> int:
    """The value with the 7 of clubs as the joker worth 11 (the rules' default)."""
    if JOKER not in cards:
        return _plain_value(cards)
    others = [c for c in cards if c != JOKER]
    ranks = [rank_of(c) for c in others]
    best = 11  # the joker as the best single card
    for s in range(4):
        best = max(best, 11 + sum(POINTS[rank_of(c)] for c in others if suit_of(c) == s))
    aces = ranks.count(ACE)
    if aces >= 1:
        best = max(best, 11 * (aces + 1))
    sevens = ranks.count(SEVEN) + 1
    if sevens == 3:
        return 34
    if sevens == 2:
        best = max(best, 23)
    if ranks[0] == ranks[1]:
        best = max(best, 2 * POINTS[ranks[0]] + 11)
    return best


def _substitute_value(cards: tuple[int, ...]) -> int:
    """The value with the 7 of clubs standing for the best card not already in the hand (or itself)."""
    if JOKER not in cards:
        return _plain_value(cards)
    others = tuple(c for c in cards if c != JOKER)
    return max(_plain_value((*others, c)) for c in DECK if c not in others)


def _table(value: object) -> dict[int, int]:
    func = _standard_value if value == "standard" else _substitute_value
    return {mask_of(h): func(h) for h in combinations(DECK, 3)}


VALUES: Final[dict[str, dict[int, int]]] = {mode: _table(mode) for mode in JOKER_MODES}


def _strength(values: dict[int, int]) -> tuple[float, ...]:
    counts = [0] * 35
    for v in values.values():
        counts[v] += 1
    total = len(values)
    out = []
    below = 0
    for v in range(35):
        out.append((below + counts[v] / 2) / total)
        below += counts[v]
    return tuple(out)


# STRENGTH[mode][v]: the share of all hands that a hand worth v beats, ties counted half.
STRENGTH: Final[dict[str, tuple[float, ...]]] = {mode: _strength(VALUES[mode]) for mode in JOKER_MODES}


def hand_value(cards: Iterable[int | str], joker: str = "standard") -> int:
    """The value of a 3-card Svara hand; cards as ints or labels (``["7C", "KH", "KD"]`` -> 31).

    ``joker`` is ``"standard"`` (7♣ worth 11, the rules' default) or ``"substitute"`` (7♣ stands for any
    card). Raises :class:`InvalidCardError` for anything but three different cards of the 32-card deck.
    """
    if joker not in VALUES:
        raise InvalidCardError(f"svara: unknown joker mode {joker!r} (use {' or '.join(JOKER_MODES)})")
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    ints: list[int] = []
    for c in cards:
        if isinstance(c, str):
            ints.append(parse_card(c))
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
            ints.append(c)
        else:
            raise InvalidCardError(f"svara: not a card: {c!r}")
    mask = mask_of(ints)
    if len(ints) != 3 or mask.bit_count() != 3:
        raise InvalidCardError(f"svara: a hand is three different cards, got {cards!r}")
    if mask & ~DECK_MASK:
        raise InvalidCardError(f"svara: {cards!r} holds a card below 7, not in the 32-card deck")
    return VALUES[joker][mask]
