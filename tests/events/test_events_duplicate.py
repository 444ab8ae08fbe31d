"""Duplicate Swiss's pure core: the hand rotation, matchpoints (checked by hand on a small round) and
the seating by the standings (``cardhall.events.duplicate``)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.events import (
    Entrant,
    EventInputError,
    HandResult,
    hand_holder,
    held_hand,
    matchpoints,
    swiss_seating,
)
from cardhall.events.duplicate import scored_hands

# ---- the rotation


@given(st.integers(2, 11), st.integers(0, 40))
def test_each_table_rotates_the_hands_one_seat_further(seats: int, table: int) -> None:
    holders = [hand_holder(table, s, seats) for s in range(seats)]
    assert sorted(holders) == list(range(seats)), "every hand held by exactly one seat"
    assert all(held_hand(table, hand_holder(table, s, seats), seats) == s for s in range(seats))
    assert hand_holder(table, 0, seats) == table % seats


def test_a_seat_outside_the_table_is_refused() -> None:
    with pytest.raises(EventInputError, match="seat 3 of a table of 3 seats"):
        hand_holder(0, 3, 3)
    with pytest.raises(EventInputError, match="seat -1 of a table of 4 seats"):
        held_hand(1, -1, 4)


# ---- matchpoints, by hand
#
# One round of one deal of a three-seat game at three tables; the rotation (hand of seat s held by
# the seat (s + t) mod 3 at table t):
#   table 0: seats A, B, C           -> A holds hand 0, B hand 1, C hand 2
#   table 1: seats D, E, F           -> hand 0 at seat 1 (E), hand 1 at seat 2 (F), hand 2 at seat 0 (D)
#   table 2: seats G, bot1, bot2     -> hand 0 at seat 2 (bot2), hand 1 at seat 0 (G), hand 2 at seat 1 (bot1)
# The deal's scores, by hand:
#   hand 0: A 10, E 4, bot2 10  -> A beats E (1) and ties bot2 (1/2): 1.5;  E beats nobody: 0
#   hand 1: B 6, F 6, G 0       -> B ties F (1/2), beats G (1): 1.5;  F the same: 1.5;  G: 0
#   hand 2: C -2, D 5, bot1 -2  -> C loses to D (0), ties bot1 (1/2): 0.5;  D beats both: 2
# Each person was compared with two others, so could make 2: shares A .75, B .75, C .25, D 1,
# E 0, F .75, G 0. Bots are compared against and get nothing.

TABLES = {"t0": ("A", "B", "C"), "t1": ("D", "E", "F"), "t2": ("G", "bot1", "bot2")}
SCORES = {"A": 10, "E": 4, "bot2": 10, "B": 6, "F": 6, "G": 0, "C": -2, "D": 5, "bot1": -2}
RATINGS = {"A": 1600.0, "B": 1500.0, "C": 1400.0, "D": 1700.0, "E": 1450.0, "F": 1550.0, "G": 1300.0}


def example_round() -> list[HandResult]:
    out = []
    for index, (table, seated) in enumerate(TABLES.items()):
        for seat, player in enumerate(seated):
            hand = held_hand(index, seat, 3)
            is_bot = player.startswith("bot")
            out.append(HandResult(player, 0, hand, SCORES[player], is_bot=is_bot, table=table, round=1))
    return out


def test_a_rounds_matchpoints_checked_by_hand() -> None:
    results = example_round()
    hands = {r.player: r.hand for r in results}
    assert hands == {"A": 0, "B": 1, "C": 2, "D": 2, "E": 0, "F": 1, "G": 1, "bot1": 2, "bot2": 0}
    assert matchpoints(results) == {"A": 1.5, "B": 1.5, "C": 0.5, "D": 2.0, "E": 0.0, "F": 1.5, "G": 0.0}
    assert {r.player: compared for r, _, compared in scored_hands(results)} == dict.fromkeys(SCORES, 2)


def test_in_a_penalty_game_the_lowest_score_beats() -> None:
    # the same round where the lowest score wins: every comparison turns round, ties stay ties
    #   hand 0: A 10 loses to E 4, ties bot2: 0.5;  E beats both: 2
    #   hand 1: B and F tie (1/2) and lose to G 0: 0.5 each;  G: 2
    #   hand 2: C -2 beats D 5, ties bot1: 1.5;  D: 0
    results = example_round()
    assert matchpoints(results, lowest_wins=True) == {
        "A": 0.5,
        "B": 0.5,
        "C": 1.5,
        "D": 0.0,
        "E": 2.0,
        "F": 0.5,
        "G": 2.0,
    }


def test_a_deal_a_stand_in_played_earns_its_person_nothing_but_counts_for_the_others() -> None:
    results = [
        HandResult("ana", 0, 0, 10, table="t0", absent=True),
        HandResult("ben", 0, 0, 5, table="t1"),
        HandResult("cy", 0, 0, 12, table="t2"),
    ]
    assert matchpoints(results) == {"ana": 0.0, "ben": 0.0, "cy": 2.0}
    assert [compared for _, _, compared in scored_hands(results)] == [2, 2, 2]


def test_different_deals_and_rounds_are_never_compared() -> None:
    results = [
        HandResult("ana", 0, 0, 10, round=1),
        HandResult("ben", 1, 0, 5, round=1),
        HandResult("cy", 0, 0, 1, round=2),
        HandResult("dee", 0, 1, 0, round=1),
    ]
    assert matchpoints(results) == dict.fromkeys(("ana", "ben", "cy", "dee"), 0.0)
    assert all(compared == 0 for _, _, compared in scored_hands(results))


# ---- the Swiss seating


def entrants(n: int, rng: random.Random) -> list[Entrant]:
    ranks = list(range(1, n + 1))
    rng.shuffle(ranks)
    return [Entrant(f"p{i}", round(rng.uniform(1000, 2200)), ranks[i]) for i in range(n)]


def check_tables(people: list[Entrant], seats: int, tables: list[tuple[str, ...]]) -> None:
    seated = [p for t in tables for p in t]
    assert sorted(seated) == sorted(e.player for e in people), "everyone seated exactly once"
    sizes = [len(t) for t in tables]
    short = len(people) % seats
    assert sizes.count(seats) == len(people) // seats
    assert [s for s in sizes if s != seats] == ([short] if short else [])


def last_round(tables: list[tuple[str, ...]]) -> dict[str, frozenset[str]]:
    return {p: frozenset(t) - {p} for t in tables for p in t}


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 80), st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_everyone_is_seated_once_at_tables_of_the_right_size(n: int, seats: int, seed: int) -> None:
    rng = random.Random(seed)
    people = entrants(n, rng)
    first = swiss_seating(people, seats, {}, 1)
    check_tables(people, seats, first)
    second = swiss_seating(people, seats, last_round(first), 2)
    check_tables(people, seats, second)


def test_round_one_seats_by_rating_and_later_rounds_by_the_standings() -> None:
    people = [Entrant(f"p{i}", 1000.0 + 100 * i, rank=i + 1) for i in range(9)]
    assert swiss_seating(people, 4, {}, 1) == [("p8", "p7", "p6", "p5"), ("p4", "p3", "p2", "p1"), ("p0",)]
    assert swiss_seating(people, 4, {}, 2) == [("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7"), ("p8",)]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32 - 1), st.data())
def test_people_who_met_are_kept_apart_when_the_last_round_allows_it(
    seats: int, seed: int, data: st.DataObject
) -> None:
    # As many tables as seats or more: a seating without a repeat exists (one from each of `seats`
    # different tables of the last round).
    tables = data.draw(st.integers(seats, max(seats, 200 // seats)))
    rng = random.Random(seed)
    people = entrants(tables * seats, rng)
    shuffled = [e.player for e in people]
    rng.shuffle(shuffled)
    met = last_round([tuple(shuffled[i : i + seats]) for i in range(0, len(shuffled), seats)])
    seating = swiss_seating(people, seats, met, 2)
    check_tables(people, seats, seating)
    repeats = [(a, b) for t in seating for a, b in combinations(t, 2) if b in met[a]]
    assert not repeats, repeats


def test_bad_entrants_are_refused_by_name() -> None:
    with pytest.raises(EventInputError, match="at least 2 seats, not 0"):
        swiss_seating([Entrant("a")], 0, {}, 1)
    with pytest.raises(EventInputError, match=r"listed twice: \['a'\]"):
        swiss_seating([Entrant("a"), Entrant("b"), Entrant("a")], 3, {}, 1)
