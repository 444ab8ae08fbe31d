"""Svara hand values: every example of the rules and the seed, every rule, and all 4,960 hands."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardhall import InvalidCardError, parse_card
from cardhall.games.svara.hands import DECK, JOKER, VALUES
from cardhall.games.svara.rules import hand_value

# The seed's examples, as the rules file lists them, and the rules' own suit-sum examples.
EXAMPLES = [
    ("7H 9D 9C", 9),
    ("10S 10D 10C", 30),
    ("8C KH 9D", 10),
    ("KH 9H QC", 19),
    ("QC QH 9D", 10),
    ("AS AD 10C", 22),
    ("8S AD 7C", 22),
    ("10D 9D JD", 29),
    ("QC QH QD", 30),
    ("7C KH KD", 31),
    ("7C AH AD", 33),
    ("QD KD 10S", 20),
    ("10S 8S KH", 18),
    ("7D 8H 8S", 8),
]


@pytest.mark.parametrize(("hand", "value"), EXAMPLES)
def test_examples_of_the_rules_and_the_seed(hand: str, value: int) -> None:
    assert hand_value(hand) == value
    assert hand_value(hand.split()) == value
    assert hand_value([parse_card(c) for c in hand.split()]) == value


@pytest.mark.parametrize("pair", list(combinations(["7C", "7D", "7H", "7S"], 2)))
def test_any_two_sevens_are_23(pair: tuple[str, str]) -> None:
    others = [c for c in ("8D", "9H", "10S", "JD", "QH", "KS") if c[-1] not in {p[-1] for p in pair}]
    for third in others:
        assert hand_value([*pair, third]) == 23, (pair, third)


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        # suit sum, with the joker adding 11 to any suit
        ("AH KH 10S", 21),
        ("AH KH QH", 31),
        ("7C AS KS", 32),
        ("7C 9D 8D", 28),
        ("7C 10C JC", 31),
        # aces
        ("AH AD 8C", 22),
        ("AH AD AS", 33),
        ("7C AH AS", 33),
        ("7C AH 8D", 22),
        # three of a kind
        ("8C 8D 8H", 24),
        ("9C 9D 9H", 27),
        ("JC JD JH", 30),
        ("KC KD KS", 30),
        # three sevens, with or without the joker
        ("7C 7D 7H", 34),
        ("7D 7H 7S", 34),
        # joker + a pair
        ("7C 8H 8S", 27),
        ("7C 9H 9S", 29),
        ("7C JH JS", 31),
        # best single card
        ("8C 9D 10H", 10),
        ("8C 9D AH", 11),
        ("7D 8H 9S", 9),
    ],
)
def test_each_rule(hand: str, value: int) -> None:
    assert hand_value(hand) == value


def test_joker_substitute_variant() -> None:
    assert hand_value("7C KH KD", joker="substitute") == 30
    assert hand_value("7C AH AD", joker="substitute") == 33  # a third ace
    assert hand_value("7C 7D 8H", joker="substitute") == 23  # a seven: still two sevens at best
    assert hand_value("7C 7D 7H", joker="substitute") == 34
    assert hand_value("7C AS KS", joker="substitute") == 31  # the queen of spades
    assert hand_value("7C 8D 9H", joker="substitute") == 20  # an ace with the 9
    assert hand_value("10S 8S KH", joker="substitute") == 18  # no joker: as standard


def test_all_4960_hands() -> None:
    for mode, table in VALUES.items():
        assert len(table) == 4960 == len(list(combinations(DECK, 3)))
        values = Counter(table.values())
        assert min(values) == 8, mode
        assert max(values) == 34, mode
        # 34 only for three sevens; 8 only for a seven and two eights of three different suits
        sevens = {m for m in table if all(c % 13 == 5 for c in DECK if m >> c & 1)}
        assert {m for m, v in table.items() if v == 34} == sevens and len(sevens) == 4
        eights = [m for m, v in table.items() if v == 8]
        assert len(eights) == 9
        for m in eights:
            cards = [c for c in DECK if m >> c & 1]
            assert sorted(c % 13 for c in cards) == [5, 6, 6]
            assert len({c // 13 for c in cards}) == 3 and JOKER not in cards
        assert all(8 <= v <= 34 for v in values)
        assert sum(values.values()) == 4960
    # The seed calls 9 "the worst hand": 51 hands are worth 9, and 9 hands are worse.
    assert Counter(VALUES["standard"].values())[9] == 51
    # Values no rule can produce in the standard game (12-14 and nothing above 34).
    assert not {12, 13, 14} & set(VALUES["standard"].values())


@pytest.mark.parametrize(
    "bad",
    ["7C KH", "7C KH KD QS", "7C 7C KH", "6C KH KD", "XX KH KD", [5, 5, 6], [5, 6, 52], [True, 6, 7]],
)
def test_bad_hands_are_refused(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        hand_value(bad)  # type: ignore[arg-type]


def test_bad_joker_mode() -> None:
    with pytest.raises(InvalidCardError, match="joker"):
        hand_value("7C KH KD", joker="wild")


@given(st.sampled_from(list(combinations(DECK, 3))), st.permutations([0, 1, 2]))
def test_order_and_spelling_do_not_matter(hand: tuple[int, int, int], perm: list[int]) -> None:
    shuffled = [hand[i] for i in perm]
    labels = [f"{'10' if c % 13 == 8 else '789TJQKA'[c % 13 - 5]}{'CDHS'[c // 13]}" for c in shuffled]
    for mode in VALUES:
        assert hand_value(hand, mode) == hand_value(shuffled, mode) == hand_value(labels, mode)
