"""Standings as a pure function of the stored records (``cardhall.events.standings``): an arena's
points, streaks and stand-ins worked by hand, a duplicate round's tie-breaks worked by hand, and
properties that hold for any records."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.events import (
    ArenaTally,
    Entrant,
    EventInputError,
    HandResult,
    TableResult,
    TableSeat,
    arena_standings,
    duplicate_standings,
)
from cardhall.events.duplicate import scored_hands
from tests.events.test_events_duplicate import RATINGS, example_round

# ---- the arena, by hand (three seats: 2 / 1 / 0 points, ties sharing rounded down)
#   t1 (ended 1): ana 100, ben 50, bot 20        -> ana 2 (won alone), ben 1
#   t2 (ended 2): ana 90, cy 30, dee 10           -> ana 2 (won alone), cy 1, dee 0
#   t3 (ended 3): ana 70, ben 60, bot 40          -> ana on a streak (two won alone): 2 x 2 = 4, ben 1
#   t4 (ended 4): cy 50, dee 50, bot 50           -> all tied: (2 + 1 + 0) // 3 = 1 each
#   t5 (ended 5): ben 30 (a stand-in played it), cy 20, dee 10 -> ben 0, cy 1, dee 0
# Totals: ana 8 (3 tables, 3 won alone, still on a streak), cy 3, ben 2, dee 1, eve 0 (no table).
# ana's performance: t1 others 1500 and a bot (1500), won all: 1500 + 400 = 1900; t2 cy 1700 and
# dee 1500: 1600 + 400 = 2000; t3 ben 1500 and a bot: 1900; the mean 5800 / 3.


def seat(player: str | None, score: float, rating: float | None = None, absent: bool = False) -> TableSeat:
    return TableSeat(player, score, absent=absent, rating=rating)


ARENA = [
    TableResult("t1", (seat("ana", 100), seat("ben", 50, 1500), seat(None, 20)), ended=1),
    TableResult("t2", (seat("ana", 90), seat("cy", 30, 1700), seat("dee", 10, 1500)), ended=2),
    TableResult("t3", (seat("ana", 70), seat("ben", 60, 1500), seat(None, 40)), ended=3),
    TableResult("t4", (seat("cy", 50), seat("dee", 50), seat(None, 50)), ended=4),
    TableResult("t5", (seat("ben", 30, absent=True), seat("cy", 20), seat("dee", 10)), ended=5),
]
ARENA_ENTRANTS = [Entrant(p, 1500.0) for p in ("ana", "ben", "cy", "dee", "eve")]


def test_an_arenas_standings_worked_by_hand() -> None:
    lines = arena_standings(ARENA_ENTRANTS, ARENA)
    assert [(s.player, s.rank, s.points, s.tables, s.firsts) for s in lines] == [
        ("ana", 1, 8, 3, 3),
        ("cy", 2, 3, 3, 0),
        ("ben", 3, 2, 3, 0),
        ("dee", 4, 1, 3, 0),
        ("eve", 5, 0, 0, 0),
    ]
    ana = lines[0]
    assert ana.streak and not any(s.streak for s in lines[1:])
    assert ana.performance == pytest.approx(5800 / 3)
    assert lines[-1].performance == 0.0  # no table yet


def test_the_streak_follows_the_order_tables_ended_not_the_order_given() -> None:
    shuffled = list(reversed(ARENA))
    assert arena_standings(ARENA_ENTRANTS, shuffled) == arena_standings(ARENA_ENTRANTS, ARENA)
    # ana wins two tables alone and comes second at a third: doubled (2 + 2 + 2 x 1) when the third
    # ended last, not (1 + 2 + 2) when it ended first
    won = [TableResult(f"w{i}", (seat("ana", 9), seat(None, 5), seat(None, 1)), ended=i) for i in (1, 2)]
    second = (seat("ana", 5), seat(None, 9), seat(None, 1))
    last = arena_standings([Entrant("ana")], [*won, TableResult("s", second, ended=3)])
    first = arena_standings([Entrant("ana")], [*won, TableResult("s", second, ended=0)])
    assert (last[0].points, last[0].streak) == (6, False)
    assert (first[0].points, first[0].streak) == (5, True)


def test_equal_points_and_performance_share_a_rank() -> None:
    lines = arena_standings([Entrant("a"), Entrant("b"), Entrant("c")], [])
    assert [(s.player, s.rank) for s in lines] == [("a", 1), ("b", 1), ("c", 1)]


def test_a_person_in_two_seats_of_one_table_is_refused() -> None:
    bad = TableResult("t9", (seat("ana", 1), seat("ana", 2), seat(None, 3)))
    with pytest.raises(EventInputError, match=r"table t9: a person in two seats"):
        arena_standings([Entrant("ana")], [bad])


# ---- duplicate, by hand: the round of tests/events/test_events_duplicate.py (shares A .75, B .75, C .25,
# D 1, E 0, F .75, G 0) plus H, signed up, who played nothing.
#   D first (share 1).
#   A, B, F tie on .75 and on strength (their table-mates' mean share: A's B .75 and C .25 -> .5;
#   B's A and C -> .5; F's D 1 and E 0 -> .5); the performance decides: the mean rating of the others
#   who held his hand, + 400 x (2 x .75 - 1) = + 200:
#     A: E 1450 and bot2 1500 -> 1475 + 200 = 1675;  B: F 1550, G 1300 -> 1625;  F: B 1500, G 1300 -> 1600
#   C fifth (.25).
#   E and G both 0: E's table-mates D and F (1 and .75: strength .875), G's are bots (strength 0):
#   E sixth, G seventh (G's performance 1525 - 400 = 1125), H (nothing at all) eighth.


def test_a_duplicate_rounds_standings_worked_by_hand() -> None:
    entrants = [Entrant(p, r) for p, r in RATINGS.items()] + [Entrant("H", 1500.0)]
    lines = duplicate_standings(entrants, example_round())
    assert [(s.player, s.rank, s.share) for s in lines] == [
        ("D", 1, 1.0),
        ("A", 2, 0.75),
        ("B", 3, 0.75),
        ("F", 4, 0.75),
        ("C", 5, 0.25),
        ("E", 6, 0.0),
        ("G", 7, 0.0),
        ("H", 8, 0.0),
    ]
    by = {s.player: s for s in lines}
    assert [by[p].performance for p in "ABF"] == [1675, 1625, 1600]
    assert by["E"].strength == pytest.approx(0.875) and by["G"].strength == 0.0
    assert by["G"].performance == 1125 and by["H"].performance == 0.0
    assert by["D"].matchpoints == 2.0 and by["D"].tables == 1 and by["H"].tables == 0


# ---- properties of any records


@st.composite
def duplicate_records(draw: st.DrawFn) -> list[HandResult]:
    seats = draw(st.integers(2, 5))
    tables = draw(st.integers(1, 5))
    deals = draw(st.integers(1, 3))
    people = [f"p{i}" for i in range(seats * tables)]
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    out = []
    for rnd in (1, 2):
        rng.shuffle(people)
        for t in range(tables):
            for s in range(seats):
                who = people[t * seats + s]
                bot = rng.random() < 0.2
                for d in range(deals):
                    out.append(
                        HandResult(
                            f"bot{t}.{s}" if bot else who,
                            d,
                            (s - t) % seats,
                            rng.choice([-5, 0, 5, 10]),
                            is_bot=bot,
                            table=f"r{rnd}t{t}",
                            round=rnd,
                            absent=not bot and rng.random() < 0.1,
                        )
                    )
    return out


@settings(max_examples=60, deadline=None)
@given(duplicate_records())
def test_duplicate_standings_are_a_function_of_the_records(hands: list[HandResult]) -> None:
    entrants = sorted({Entrant(h.player, 1500.0) for h in hands if not h.is_bot}, key=lambda e: e.player)
    lines = duplicate_standings(entrants, hands)
    again = list(hands)
    random.Random(1).shuffle(again)
    assert duplicate_standings(list(reversed(entrants)), again) == lines
    assert sorted(s.player for s in lines) == [e.player for e in entrants]
    assert lines[0].rank == 1 and all(a.rank <= b.rank for a, b in pairwise(lines))
    assert all(0.0 <= s.share <= 1.0 for s in lines)
    # each pair compared once within a hand: everything earned by people and bots alike (bots' scored
    # as people's here) adds up to one point a pair; the people's part is what the standings hold
    pairs = sum(compared for _, _, compared in scored_hands(hands)) / 2
    earned = sum(s.matchpoints for s in lines)
    assert earned <= pairs + 1e-9
    as_people = [HandResult(h.player, h.deal, h.hand, h.score, table=h.table, round=h.round) for h in hands]
    assert sum(points for _, points, _ in scored_hands(as_people)) == pytest.approx(pairs)


@st.composite
def arena_records(draw: st.DrawFn) -> list[TableResult]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    people = [f"p{i}" for i in range(draw(st.integers(2, 12)))]
    out = []
    for i in range(draw(st.integers(0, 25))):
        seats = rng.randint(2, min(6, len(people)))
        at = rng.sample(people, seats)
        row = tuple(
            TableSeat(
                None if rng.random() < 0.2 else p,
                rng.choice([0, 10, 20]),
                absent=rng.random() < 0.1,
                rating=rng.uniform(1000, 2000),
            )
            for p in at
        )
        out.append(TableResult(f"t{i}", row, ended=float(rng.randint(0, 9)), lowest_wins=rng.random() < 0.3))
    return out


@settings(max_examples=60, deadline=None)
@given(arena_records())
def test_arena_standings_are_a_function_of_the_records(tables: list[TableResult]) -> None:
    people = sorted({s.player for t in tables for s in t.seats if s.player is not None})
    entrants = [Entrant(p) for p in people]
    lines = arena_standings(entrants, tables)
    again = list(tables)
    random.Random(2).shuffle(again)
    assert arena_standings(list(reversed(entrants)), again) == lines
    assert [s.player for s in sorted(lines, key=lambda s: s.player)] == people
    assert all(a.points >= b.points for a, b in pairwise(lines))
    for s in lines:
        at = [t for t in tables if any(x.player == s.player for x in t.seats)]
        assert s.tables == len(at)
        # no table earns more than its best place's points twice over (a streak)
        assert 0 <= s.points <= sum(2 * (len(t.seats) - 1) for t in at)


@settings(max_examples=60, deadline=None)
@given(arena_records(), st.integers(0, 2**32 - 1))
def test_the_arena_tally_fed_table_by_table_in_any_order_equals_the_full_recomputation(
    tables: list[TableResult], seed: int
) -> None:
    # The director adds tables as their ends reach it: not in the order they ended (two processes'
    # commits cross), and it reads the standings between two tables; each reading must be the
    # standings of the tables added so far, computed from scratch in the order they ended.
    rng = random.Random(seed)
    people = sorted({s.player for t in tables for s in t.seats if s.player is not None})
    entrants = [Entrant(p) for p in people[: len(people) // 2]]  # (the others: results only)
    arrival = list(tables)
    rng.shuffle(arrival)
    tally = ArenaTally()
    for i, table in enumerate(arrival):
        assert tally.add(table)
        assert not tally.add(table)  # (a table read twice counts once)
        so_far = sorted(arrival[: i + 1], key=lambda t: (t.ended, t.table))
        if rng.random() < 0.5 or i == len(arrival) - 1:
            assert tally.standings(entrants) == arena_standings(entrants, so_far)
    assert len(tally) == len(tables)
    assert tally.standings(entrants) == arena_standings(entrants, tables)


def test_a_table_that_ended_earlier_but_came_late_takes_its_place_in_the_streak() -> None:
    # ana won t1 and t3 alone, lost t2; t2 reaches the tally last: no streak on t3 (two won in a row
    # is t1, t3 only when t2 is not between them)
    t1 = TableResult("t1", (seat("ana", 9), seat("ben", 1), seat(None, 0)), ended=1)
    t2 = TableResult("t2", (seat("ana", 0), seat("ben", 9), seat(None, 5)), ended=2)
    t3 = TableResult("t3", (seat("ana", 9), seat("ben", 1), seat(None, 0)), ended=3)
    t4 = TableResult("t4", (seat("ana", 9), seat("ben", 1), seat(None, 0)), ended=4)
    tally = ArenaTally()
    for t in (t1, t3, t4):
        tally.add(t)
    ana = next(s for s in tally.standings([]) if s.player == "ana")
    assert ana.points == 2 + 2 + 4 and ana.streak  # (t1, t3 in a row: t4 doubled)
    tally.add(t2)
    ana = next(s for s in tally.standings([]) if s.player == "ana")
    assert ana.points == 2 + 0 + 2 + 2 and ana.streak  # (t3, t4 in a row now: his next is doubled)
