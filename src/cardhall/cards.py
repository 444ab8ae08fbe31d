"""Cards as ints, their text forms, decks and bitmask card sets.

A card is an int ``suit * 13 + rank`` with suits ``C D H S`` (0..3) and ranks ``2 3 … 10 J Q K A``
(0..12), so every game shares one numbering of the 52 faces. A game with two decks numbers its 104
physical cards 0..103 and compares faces with ``card % 52``. Sets of cards are ints used as bitmasks
(bit ``c`` set when card ``c`` is in the set), which makes hands cheap to copy, compare and query.

Text forms: ``"QS"``, ``"10H"`` (canonical), ``"TH"``, ``"10♥"``, ``"q♠"``; :func:`format_card`
always writes the canonical form.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, TypeAlias

from cardhall.errors import InvalidCardError

# What an int means, for the reader (as python-chess's ``Square`` and ``Bitboard``): a card (0..51, or
# 0..103 with two decks), and a set of cards as a bitmask (bit ``c`` set when card ``c`` is in it).
Card: TypeAlias = int
Mask: TypeAlias = int

SUITS: Final = "CDHS"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

_SUIT_BY_TEXT: Final = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    "♧": CLUBS,
    "♢": DIAMONDS,
    "♡": HEARTS,
    "♤": SPADES,
}
_RANK_BY_TEXT: Final = {r: i for i, r in enumerate(RANKS)} | {"T": TEN, "1": ACE}
_LABELS: Final = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
_PRETTY: Final = tuple(RANKS[c % 13] + SUIT_SYMBOLS[c // 13] for c in range(52))


def card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = 2 … 12 = A) in ``suit`` (0 = C … 3 = S)."""
    return suit * 13 + rank


def suit_of(c: Card) -> int:
    return (c % 52) // 13


def rank_of(c: Card) -> int:
    return c % 13


def face(c: Card) -> Card:
    """The face (0..51) of a physical card of any deck."""
    return c % 52


def parse_card(text: str) -> Card:
    """Parse ``"QS"``, ``"10H"``, ``"TH"``, ``"10♥"`` or ``"q♠"`` into a card int (0..51)."""
    if not isinstance(text, str):
        raise InvalidCardError(f"card must be text like 'QS' or '10H', got {text!r}")
    t = text.strip().upper()
    if len(t) < 2:
        raise InvalidCardError(f"cannot read card {text!r}: expected rank then suit, e.g. 'QS'")
    suit = _SUIT_BY_TEXT.get(t[-1])
    rank = _RANK_BY_TEXT.get(t[:-1])
    if suit is None:
        raise InvalidCardError(f"cannot read card {text!r}: unknown suit {t[-1]!r} (use C D H S)")
    if rank is None:
        raise InvalidCardError(f"cannot read card {text!r}: unknown rank {t[:-1]!r} (use 2-10 J Q K A)")
    return suit * 13 + rank


def format_card(c: Card, pretty: bool = False) -> str:
    """The canonical text of a card (``"10H"``); ``pretty=True`` gives ``"10♥"``."""
    if not isinstance(c, int) or c < 0:
        raise InvalidCardError(f"not a card: {c!r}")
    return (_PRETTY if pretty else _LABELS)[c % 52]


def format_cards(cards: Iterable[Card], pretty: bool = False) -> list[str]:
    return [format_card(c, pretty) for c in cards]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"QS 10H 7C"`` (or a list of texts) into card ints."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


def full_deck() -> list[Card]:
    return list(range(52))


def deck_of(ranks_by_suit: dict[int, Iterable[int]]) -> list[Card]:
    """A reduced deck: for each suit, the ranks it keeps."""
    return sorted(suit * 13 + r for suit, ranks in ranks_by_suit.items() for r in ranks)


# --- bitmask card sets ---------------------------------------------------------------------------

SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def mask_of(cards: Iterable[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: Mask) -> list[Card]:
    """The cards of a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: Mask) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: Mask) -> int:
    return mask.bit_count()


def sort_for_display(cards: Iterable[Card], suit_order: str = SUITS) -> list[Card]:
    """Cards grouped by suit (in ``suit_order``), high rank first within a suit."""
    order = {SUITS.index(s): i for i, s in enumerate(suit_order)}
    return sorted(cards, key=lambda c: (order[suit_of(c)], -rank_of(c), c))
