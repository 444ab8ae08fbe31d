"""The gin meld engine against a brute force over every meld arrangement."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardhall
from cardhall.cards import format_card, mask_of, parse_cards
from cardhall.errors import InvalidCardError
from cardhall.games.gin.melds import knock_discards, layoff_targets
from cardhall.games.gin.rules import best_melds, deadwood

# gin.md, written here rather than read from the engine's tables (so a wrong table fails): "K high,
# A always low (A-2-3 is a run, Q-K-A is not)"; "A = 1, 2-10 = face value, J Q K = 10".
RUN_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
RANK_POINTS = {"A": 1, **{str(n): n for n in range(2, 11)}, "J": 10, "Q": 10, "K": 10}


def points(card: int) -> int:
    """A card's value by the rules."""
    return RANK_POINTS[format_card(card)[:-1]]


def run_position(card: int) -> int:
    """Where a card stands in a run of its suit: A first, K last."""
    return RUN_ORDER.index(format_card(card)[:-1])


def all_melds(cards: frozenset[int]) -> list[frozenset[int]]:
    melds: list[frozenset[int]] = []
    for rank in range(13):
        same = [c for c in cards if c % 13 == rank]
        for k in (3, 4):
            melds.extend(frozenset(m) for m in combinations(same, k))
    for suit in range(4):
        by_gin = {run_position(c): c for c in cards if c // 13 == suit}
        for lo in range(13):
            for hi in range(lo + 2, 13):
                if all(g in by_gin for g in range(lo, hi + 1)):
                    melds.append(frozenset(by_gin[g] for g in range(lo, hi + 1)))
    return melds


def brute_deadwood(cards: list[int]) -> int:
    melds = all_melds(frozenset(cards))

    @cache
    def best(i: int, used: frozenset[int]) -> int:
        # Most value melded using melds[i:], disjoint from used.
        if i == len(melds):
            return 0
        skip = best(i + 1, used)
        if melds[i] & used:
            return skip
        return max(skip, sum(points(c) for c in melds[i]) + best(i + 1, used | melds[i]))

    return sum(points(c) for c in cards) - best(0, frozenset())


def check_arrangement(cards: list[int]) -> None:
    arr = best_melds(cards)
    seen: list[int] = []
    for meld in arr.melds:
        assert frozenset(meld) in set(all_melds(frozenset(meld))), meld
        seen.extend(meld)
    seen.extend(arr.deadwood_cards)
    assert sorted(seen) == sorted(cards)
    assert arr.deadwood == sum(points(c) for c in arr.deadwood_cards)
    assert arr.deadwood == deadwood(cards) == brute_deadwood(cards)


def test_examples() -> None:
    assert deadwood("AS 2S 3S 4H 4D 4C KH KD KC 7S") == 7
    assert deadwood(["QS", "KS", "AS"]) == 21  # the ace is low: Q-K-A is no run
    assert deadwood(parse_cards("AS 2S 3S")) == 0
    assert deadwood([]) == 0
    # 4 of a rank whose 4th card is better used in a run: 7C 7D 7H 7S + 5S 6S -> set of three, run 5-6-7S.
    assert deadwood("7C 7D 7H 7S 5S 6S") == 0
    assert deadwood("7C 7D 7H 7S 5S 6S 9D") == 9
    arr = best_melds("7C 7D 7H 7S 5S 6S")
    assert sorted(map(len, arr.melds)) == [3, 3]
    # A card wanted by a set and a run at once: 5H in 3H4H5H or 5C5D5H, not both.
    assert deadwood("3H 4H 5H 5C 5D") == 7  # set of fives, 3H 4H left
    assert deadwood("JH QH KH JS JD") == 20
    assert deadwood("10H 10D 10S 10C JH QH KH") == 0


def test_card_inputs() -> None:
    assert deadwood([0, 1, 2]) == 0 and deadwood(["2C", "3C", "4C"]) == 0
    with pytest.raises(InvalidCardError):
        deadwood(["2C", "2C"])
    with pytest.raises(InvalidCardError):
        deadwood([52])
    with pytest.raises(InvalidCardError):
        deadwood(["ZZ"])


def test_random_hands_against_brute_force() -> None:
    rng = random.Random(2024)
    for _ in range(1500):
        check_arrangement(rng.sample(range(52), rng.choice((10, 11))))


# Dense hands: few ranks, all suits, so sets and runs compete for the same cards.
dense = st.integers(0, 9).flatmap(
    lambda lo: st.lists(
        st.sampled_from([s * 13 + (r % 13) for s in range(4) for r in range(lo, lo + 4)]),
        min_size=0,
        max_size=11,
        unique=True,
    )
)


@settings(max_examples=400, deadline=None)
@given(dense)
def test_dense_hands_against_brute_force(cards: list[int]) -> None:
    check_arrangement(cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True))
def test_any_hand_against_brute_force(cards: list[int]) -> None:
    check_arrangement(cards)


def test_knock_discards() -> None:
    hand = mask_of(parse_cards("AS 2S 3S 4H 4D 4C KH KD KC 7S 9D"))
    # Dropping 9D leaves 7; dropping 7S leaves 9; anything else leaves 16+.
    assert knock_discards(hand) == mask_of(parse_cards("7S 9D"))


def test_layoff_targets() -> None:
    run = mask_of(parse_cards("AH 2H 3H"))
    assert layoff_targets([run]) == mask_of(parse_cards("4H"))  # nothing below the ace
    top = mask_of(parse_cards("JS QS KS"))
    assert layoff_targets([top]) == mask_of(parse_cards("10S"))  # nothing above the king
    three = mask_of(parse_cards("8C 8D 8S"))
    assert layoff_targets([three]) == mask_of(parse_cards("8H"))
    assert layoff_targets([mask_of(parse_cards("8C 8D 8S 8H"))]) == 0


def test_deadwood_cards_mask_matches_best_melds_and_the_discard_identity() -> None:
    from cardhall.games.gin.melds import best_melds_mask, deadwood_cards_mask, deadwood_mask

    rng = random.Random(11)
    for _ in range(3000):
        hand = 0
        for c in rng.sample(range(52), rng.choice((10, 11))):
            hand |= 1 << c
        dead = deadwood_cards_mask(hand)
        assert dead == best_melds_mask(hand)[1]
        base = deadwood_mask(hand)
        for c in range(52):
            if dead >> c & 1:
                assert deadwood_mask(hand & ~(1 << c)) == base - points(c)


def test_the_observation_lays_out_the_seats_own_hand() -> None:
    """``hand_layout``: the seat's hand in melds and deadwood (the browser shows it grouped), the best
    way; nothing for a spectator."""
    state = cardhall.load_game("gin(players=2)").new_game(seed=3)
    for seat in range(2):
        o = state.observation(seat)
        layout = o["hand_layout"]
        assert sorted([c for m in layout["melds"] for c in m] + layout["deadwood_cards"]) == sorted(o["hand"])
        assert layout["deadwood"] == deadwood(o["hand"])
    assert state.observation(None)["hand_layout"] is None
