"""The gin meld engine: minimum deadwood and a best meld arrangement of a hand, exact and fast.

Hands are bitmasks over the shared card ints (``suit * 13 + rank``, rank 0 = 2 … 12 = A). In gin the ace
is always low (A-2-3 is a run, Q-K-A is not), so runs are computed in "gin order" A, 2, …, K.

How it stays exact and fast: melds are sets (3 or 4 cards of a rank) and runs (3+ consecutive cards of a
suit). Once the sets are fixed, the rest of the hand splits by suit, and within one suit the best runs are
simply every maximal block of 3+ consecutive cards (a block of fewer than 3 can hold no run, and a longer
block is one run). That per-suit answer is a precomputed table over the 8192 possible suit patterns. So the
minimum deadwood is the minimum, over the few ways of choosing sets (for a rank with 3 cards: the set or
not; with 4: no set, the 4-set, or one of the four 3-sets), of four table look-ups. A 10- or 11-card hand
has at most three ranks with 3+ cards, so at most 72 choices, usually one.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from typing import Final, NamedTuple

from cardhall.cards import cards_of, parse_card, parse_cards
from cardhall.errors import InvalidCardError

SUIT_BITS: Final = (1 << 13) - 1
# Card value by rank index (0 = 2 … 8 = 10, 9..11 = J Q K, 12 = A).
RANK_VALUES = tuple(r + 2 if r <= 8 else (1 if r == 12 else 10) for r in range(13))
CARD_VALUES: Final = tuple(RANK_VALUES[c % 13] for c in range(52))
RANK_MASKS: Final = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
KNOCK_LIMIT: Final = 10


def gin_rank(c: int) -> int:
    """Rank in gin order: A = 0, 2 = 1, …, K = 12."""
    return (c % 13 + 1) % 13


def _to_gin(p: int) -> int:
    """A 13-bit suit pattern in card-rank order (bit 0 = 2, bit 12 = A) to gin order (bit 0 = A)."""
    return ((p << 1) & SUIT_BITS) | (p >> 12)


def _from_gin(g: int) -> int:
    return (g >> 1) | ((g & 1) << 12)


def _build_run_tables() -> tuple[list[int], list[tuple[int, ...]]]:
    dead = [0] * (1 << 13)
    runs: list[tuple[int, ...]] = [()] * (1 << 13)
    for p in range(1 << 13):
        g = _to_gin(p)
        melded = 0
        segments: list[int] = []
        i = 0
        while i < 13:
            if not g >> i & 1:
                i += 1
                continue
            j = i
            while j < 13 and g >> j & 1:
                j += 1
            if j - i >= 3:
                seg = ((1 << (j - i)) - 1) << i
                melded |= seg
                segments.append(_from_gin(seg))
            i = j
        rest = _from_gin(g & ~melded)
        dead[p] = sum(RANK_VALUES[r] for r in range(13) if rest >> r & 1)
        runs[p] = tuple(segments)
    return dead, runs


RUN_DEADWOOD, RUN_SEGMENTS = _build_run_tables()
# RUN_MELDED[p]: the cards of suit pattern p that lie in runs (every maximal block of 3+).
RUN_MELDED: Final = tuple(sum(segments) for segments in RUN_SEGMENTS)

_CACHE_LIMIT: Final = 200_000
_deadwood_cache: dict[int, int] = {}
_knock_cache: dict[int, int] = {}
_dead_cache: dict[int, int] = {}


class Arrangement(NamedTuple):
    """A best way to meld a hand: the melds (each a tuple of card ints in gin order), the unmatched
    cards, and their total value (the deadwood)."""

    melds: tuple[tuple[int, ...], ...]
    deadwood_cards: tuple[int, ...]
    deadwood: int


def _set_choices(hand: int) -> list[tuple[int, ...]]:
    a, b = hand & SUIT_BITS, hand >> 13 & SUIT_BITS
    c, d = hand >> 26 & SUIT_BITS, hand >> 39 & SUIT_BITS
    ranks = (a & b & (c | d)) | (c & d & (a | b))  # ranks held in 3 or 4 suits
    choices: list[tuple[int, ...]] = []
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        m = hand & RANK_MASKS[low.bit_length() - 1]
        if m.bit_count() == 3:
            choices.append((0, m))
        else:
            choices.append((0, m, *(m & ~(1 << c) for c in cards_of(m))))
    return choices


def _runs_deadwood(rest: int) -> int:
    return (
        RUN_DEADWOOD[rest & SUIT_BITS]
        + RUN_DEADWOOD[rest >> 13 & SUIT_BITS]
        + RUN_DEADWOOD[rest >> 26 & SUIT_BITS]
        + RUN_DEADWOOD[rest >> 39 & SUIT_BITS]
    )


def _best_sets(hand: int) -> tuple[int, tuple[int, ...]]:
    """The minimum deadwood and the set masks of a best arrangement (fewest sets among ties, fixed order)."""
    choices = _set_choices(hand)
    if not choices:
        return _runs_deadwood(hand), ()
    best = 1 << 30
    best_sets: tuple[int, ...] = ()
    for combo in product(*choices):
        used = 0
        for m in combo:
            used |= m
        d = _runs_deadwood(hand & ~used)
        if d < best:
            best, best_sets = d, tuple(m for m in combo if m)
    return best, best_sets


def deadwood_mask(hand: int) -> int:
    """Minimum deadwood of a hand given as a bitmask."""
    d = _deadwood_cache.get(hand)
    if d is None:
        a, b = hand & SUIT_BITS, hand >> 13 & SUIT_BITS
        c, e = hand >> 26 & SUIT_BITS, hand >> 39 & SUIT_BITS
        ranks = (a & b & (c | e)) | (c & e & (a | b))  # ranks held 3 or 4 times: choose the sets
        if not ranks:
            d = RUN_DEADWOOD[a] + RUN_DEADWOOD[b] + RUN_DEADWOOD[c] + RUN_DEADWOOD[e]
        elif ranks & (ranks - 1) == 0 and (m := hand & RANK_MASKS[ranks.bit_length() - 1]).bit_count() == 3:
            # One rank of three (the usual case): the set or the runs through its cards.
            rest = hand & ~m
            d = min(
                RUN_DEADWOOD[a] + RUN_DEADWOOD[b] + RUN_DEADWOOD[c] + RUN_DEADWOOD[e],
                RUN_DEADWOOD[rest & SUIT_BITS]
                + RUN_DEADWOOD[rest >> 13 & SUIT_BITS]
                + RUN_DEADWOOD[rest >> 26 & SUIT_BITS]
                + RUN_DEADWOOD[rest >> 39],
            )
        else:
            d = _best_sets(hand)[0]
        if len(_deadwood_cache) >= _CACHE_LIMIT:
            _deadwood_cache.clear()
        _deadwood_cache[hand] = d
    return d


def deadwood_cards_mask(hand: int) -> int:
    """The unmatched cards of a best arrangement (the one :func:`best_melds_mask` gives), as a mask.

    Any card ``c`` in it has ``deadwood_mask(hand - c) == deadwood_mask(hand) - value(c)``: bots use this
    to cost most discards without another deadwood computation."""
    dead = _dead_cache.get(hand)
    if dead is None:
        a, b = hand & SUIT_BITS, hand >> 13 & SUIT_BITS
        c, e = hand >> 26 & SUIT_BITS, hand >> 39 & SUIT_BITS
        rest = hand
        if (a & b & (c | e)) | (c & e & (a | b)):
            for m in _best_sets(hand)[1]:
                rest &= ~m
        dead = rest & ~(
            RUN_MELDED[rest & SUIT_BITS]
            | RUN_MELDED[rest >> 13 & SUIT_BITS] << 13
            | RUN_MELDED[rest >> 26 & SUIT_BITS] << 26
            | RUN_MELDED[rest >> 39] << 39
        )
        if len(_dead_cache) >= _CACHE_LIMIT:
            _dead_cache.clear()
        _dead_cache[hand] = dead
    return dead


def best_melds_mask(hand: int) -> tuple[list[int], int, int]:
    """A best arrangement of a bitmask hand: (meld masks, deadwood mask, deadwood value)."""
    value, sets = _best_sets(hand)
    melds = list(sets)
    rest = hand
    for m in sets:
        rest &= ~m
    for s in range(4):
        for seg in RUN_SEGMENTS[rest >> (13 * s) & SUIT_BITS]:
            melds.append(seg << (13 * s))
    melded = 0
    for m in melds:
        melded |= m
    return melds, hand & ~melded, value


def knock_discards(hand: int) -> int:
    """For an 11-card hand: the mask of discards that leave deadwood <= 10 (the knocking discards).

    This is the engine's incremental helper: one call per turn, cached by hand. It prunes with the bound
    ``deadwood(hand - c) >= deadwood(hand) - value(c)`` (an arrangement of the 10 cards plus ``c`` as
    deadwood is an arrangement of the 11), so most hands need one deadwood computation, not eleven."""
    k = _knock_cache.get(hand)
    if k is None:
        k = 0
        need = deadwood_mask(hand) - KNOCK_LIMIT  # a discard must be worth at least this much
        if need <= 10:
            m = hand
            while m:
                low = m & -m
                m ^= low
                if CARD_VALUES[low.bit_length() - 1] >= need and deadwood_mask(hand ^ low) <= KNOCK_LIMIT:
                    k |= low
        if len(_knock_cache) >= _CACHE_LIMIT:
            _knock_cache.clear()
        _knock_cache[hand] = k
    return k


def is_set(meld: int) -> bool:
    low = (meld & -meld).bit_length() - 1
    return meld & RANK_MASKS[low % 13] == meld


def layoff_targets(melds: Iterable[int]) -> int:
    """The cards that could be laid off onto these melds now: the missing 4th card of a 3-card set, the
    card just below or above each run in its suit (A low, K high ends)."""
    targets = 0
    for m in melds:
        low = (m & -m).bit_length() - 1
        if is_set(m):
            if m.bit_count() == 3:
                targets |= RANK_MASKS[low % 13] & ~m
            continue
        suit = low // 13
        g = _to_gin(m >> (13 * suit) & SUIT_BITS)
        lo = (g & -g).bit_length() - 1
        hi = g.bit_length() - 1
        ext = 0
        if lo > 0:
            ext |= 1 << (lo - 1)
        if hi < 12:
            ext |= 1 << (hi + 1)
        targets |= _from_gin(ext) << (13 * suit)
    return targets


def layoff_meld(melds: list[int], card: int) -> int:
    """The index of the meld ``card`` is laid off onto: a run it extends if any (that keeps the most
    later lay-offs possible), else the set it completes; -1 if none."""
    bit = 1 << card
    found = -1
    for i, m in enumerate(melds):
        if layoff_targets((m,)) & bit:
            if not is_set(m):
                return i
            found = i
    return found


def gin_sorted(cards: Iterable[int]) -> list[int]:
    """Cards by suit, then in gin order (A low)."""
    return sorted(cards, key=lambda c: (c // 13, gin_rank(c)))


def to_mask(cards: Iterable[int | str] | str) -> int:
    """A bitmask of cards given as ints, labels ("QS", "10H") or one text ("QS 10H 7C")."""
    items: Iterable[int | str] = parse_cards(cards) if isinstance(cards, str) else cards
    mask = 0
    for item in items:
        if isinstance(item, str):
            c = parse_card(item)
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 52:
            c = item
        else:
            raise InvalidCardError(f"not a card: {item!r}")
        if mask >> c & 1:
            raise InvalidCardError(f"card {item!r} given twice")
        mask |= 1 << c
    return mask


def deadwood(cards: Iterable[int | str] | str) -> int:
    """The minimum deadwood of ``cards`` (ints or labels) over all meld arrangements."""
    return deadwood_mask(to_mask(cards))


def best_melds(cards: Iterable[int | str] | str) -> Arrangement:
    """A best arrangement of ``cards`` (ints or labels): melds, unmatched cards, deadwood."""
    melds, dead, value = best_melds_mask(to_mask(cards))
    return Arrangement(
        tuple(tuple(gin_sorted(cards_of(m))) for m in melds), tuple(gin_sorted(cards_of(dead))), value
    )


# --- the knocker's choice of arrangement -----------------------------------------------------------

# The most arrangements a knock offers (the size of gin's block of arrange actions). No hand is known to
# have more than 33 (every 10-card hand of ranks A-7 enumerated, and a hill-climbing search over all
# hands, which found at most 26; tests/games/gin/test_gin_arrange.py keeps the worst ones); a hand over
# the cap would be offered the first ARRANGE_CAP in canonical order.
ARRANGE_CAP: Final = 40

# PATTERN_VALUE[p]: the value of the cards of a 13-bit suit pattern (card-rank order).
PATTERN_VALUE: Final = tuple(sum(RANK_VALUES[r] for r in range(13) if p >> r & 1) for p in range(1 << 13))
_run_choice_cache: dict[int, tuple[int, ...]] = {}


def _run_choices(p: int) -> tuple[int, ...]:
    """The ways to meld runs out of a suit pattern: every sub-pattern whose maximal blocks of
    consecutive cards (gin order) all hold 3 or more (adjacent runs are one run), most cards first."""
    choices = _run_choice_cache.get(p)
    if choices is None:
        found = []
        sub = p
        while True:
            if RUN_MELDED[sub] == sub:
                found.append(sub)
            if sub == 0:
                break
            sub = (sub - 1) & p
        choices = tuple(found)
        _run_choice_cache[p] = choices
    return choices


def arrangements_mask(hand: int, limit: int = KNOCK_LIMIT) -> list[tuple[list[int], int, int]]:
    """The distinct ways a knocker may lay out ``hand`` with deadwood at most ``limit``, as (meld masks,
    deadwood mask, deadwood value), in canonical order: least deadwood first, then fewest sets, then by
    the melds' cards (suit, then rank from A). Each layout's melds are ordered as
    :func:`best_melds_mask` orders them (sets by rank, then runs by suit, each from A up), so a hand with
    one layout gets :func:`best_melds_mask`'s.

    A layout is a set of melds; its deadwood is every card outside them. Every layout within the limit
    is offered, as the rules of record say ("any arrangement whose deadwood is <= 10, not only the
    smallest"): three runs or three sets from the same nine cards, a card that fits a run or a set, and
    also a card kept out of a meld it could join (a run laid short, a set of three out of four), which
    adds to his count but can stop a lay-off. Adjacent runs in a suit are one run (3-4-5 and 6-7-8 of
    clubs are laid as 3-8: no card fits between them, so the split would change nothing)."""
    found: list[tuple[int, int, list[int], int, int]] = []
    for sets in product(*_set_choices(hand)):
        used = 0
        for m in sets:
            used |= m
        rest = hand & ~used
        set_masks = [m for m in sets if m]
        suits = [rest >> (13 * s) & SUIT_BITS for s in range(4)]
        # floor[s]: the least deadwood suits s.. can still leave (every run they hold melded).
        floor = [0] * 5
        for s in range(3, -1, -1):
            floor[s] = floor[s + 1] + RUN_DEADWOOD[suits[s]]
        if floor[0] > limit:
            continue
        # Depth-first over the suits' run choices, pruned by the deadwood bound.
        stack: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
        while stack:
            s, value, runs = stack.pop()
            if s == 4:
                melds = list(set_masks)
                dead = 0
                for t in range(4):
                    for seg in RUN_SEGMENTS[runs[t]]:
                        melds.append(seg << (13 * t))
                    dead |= (suits[t] & ~runs[t]) << (13 * t)
                found.append((value, len(set_masks), melds, dead, value))
                continue
            for q in _run_choices(suits[s]):
                v = value + PATTERN_VALUE[suits[s] & ~q]
                if v + floor[s + 1] <= limit:
                    stack.append((s + 1, v, (*runs, q)))
    out = found
    out.sort(key=lambda o: (o[0], o[1], [tuple(gin_sorted(cards_of(m))) for m in o[2]]))
    return [(melds, dead, value) for _, _, melds, dead, value in out]


def melds_within(cards: int) -> list[int]:
    """Every set (of 3 or 4) and every run of 3 to 5 cards that ``cards`` hold, as masks."""
    melds: list[int] = []
    for r in range(13):
        m = cards & RANK_MASKS[r]
        if m.bit_count() >= 3:
            if m.bit_count() == 4:
                melds.append(m)
                melds.extend(m & ~(1 << c) for c in cards_of(m))
            else:
                melds.append(m)
    for s in range(4):
        g = _to_gin(cards >> (13 * s) & SUIT_BITS)
        for length in (3, 4, 5):
            run = (1 << length) - 1
            for lo in range(14 - length):
                if g >> lo & run == run:
                    melds.append(_from_gin(run << lo) << (13 * s))
    return melds
