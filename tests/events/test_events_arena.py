"""The arena's pure core: points per place, the streak, and the seating of the free players
(``cardhall.events.points``, ``cardhall.events.arena``, ``cardhall.events.partition``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.events import EventInputError, Free, place_points, places, seat_free, streak_bonus
from cardhall.events.arena import pair_cost
from cardhall.events.partition import EXACT_LIMIT, REPEAT
from cardhall.events.points import streak_points

# ---- points per place and the streak


def test_points_per_place_are_seats_minus_place() -> None:
    assert place_points([1, 2, 3], 3) == [2, 1, 0]
    assert place_points([3, 1, 2], 3) == [0, 2, 1]
    assert place_points([4, 3, 2, 1], 4) == [0, 1, 2, 3]


def test_tied_places_share_the_points_they_cover_rounded_down() -> None:
    # two first of three cover places 1 and 2: (2 + 1) // 2 = 1 each; the third 0
    assert place_points([1, 1, 3], 3) == [1, 1, 0]
    # the same tie written densely (1, 1, 2) is the same tie
    assert place_points([1, 1, 2], 3) == [1, 1, 0]
    # 4 seats, second place shared: places 2 and 3 cover 2 + 1 = 3 points, 3 // 2 = 1 each
    assert place_points([1, 2, 2, 4], 4) == [3, 1, 1, 0]
    # everyone tied at 4 seats: (3 + 2 + 1 + 0) // 4 = 1
    assert place_points([1, 1, 1, 1], 4) == [1, 1, 1, 1]


def test_places_from_scores_share_ties_and_follow_the_games_direction() -> None:
    assert places([10, 10, 5]) == [1, 1, 3]
    assert places([10, 10, 5], lowest_wins=True) == [2, 2, 1]
    assert places([-3, 7, 0, 7]) == [4, 1, 3, 1]


@given(st.integers(2, 11).flatmap(lambda n: st.lists(st.integers(-50, 50), min_size=n, max_size=n)))
def test_points_never_exceed_the_tables_and_follow_the_places(scores: list[int]) -> None:
    n = len(scores)
    place = places(scores)
    points = place_points(place, n)
    assert sum(points) <= n * (n - 1) // 2
    if len(set(scores)) == n:
        assert sorted(points) == list(range(n))
    for a, b in combinations(range(n), 2):
        if place[a] < place[b]:
            assert points[a] >= points[b]
        elif place[a] == place[b]:
            assert points[a] == points[b]


def test_bad_places_are_refused_by_name() -> None:
    with pytest.raises(EventInputError, match="2 places for a table of 3 seats"):
        place_points([1, 2], 3)
    with pytest.raises(EventInputError, match="places start at 1"):
        place_points([0, 1, 2], 3)


def test_two_tables_won_alone_in_a_row_double_the_next_until_one_is_not() -> None:
    assert streak_bonus([]) == 1 and streak_bonus([True]) == 1
    assert streak_bonus([True, True]) == 2 and streak_bonus([False, True, True]) == 2
    assert streak_bonus([True, True, False]) == 1 and streak_bonus([True, False, True]) == 1
    # won alone: 2, 2, then doubled: 4, a second (doubled, and the streak ends): 2, then plain 1
    assert streak_points([(2, True), (2, True), (2, True), (1, False), (1, False)]) == [2, 2, 4, 2, 1]


# ---- seating the free players


def cost_of(free: Sequence[Free], tables: Sequence[Sequence[str]]) -> float:
    by_name = {f.player: f for f in free}
    return sum(pair_cost(by_name[a], by_name[b]) for t in tables for a, b in combinations(t, 2))


def partitions(people: list[str], size: int, short: int) -> Iterator[list[tuple[str, ...]]]:
    """Every partition of ``people`` into tables of ``size`` and (when ``short``) one table of ``short``."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for group in {size, short} - {0}:
        for mates in combinations(rest, group - 1):
            left = [p for p in rest if p not in mates]
            for more in partitions(left, size, 0 if group == short and group != size else short):
                yield [(first, *mates), *more]


def brute_force(free: Sequence[Free], size: int, short: int) -> float:
    names = [f.player for f in free]
    return min(cost_of(free, p) for p in partitions(names, size, short))


@st.composite
def pools(draw: st.DrawFn, min_size: int = 0, max_size: int = 9) -> tuple[list[Free], int]:
    seats = draw(st.integers(2, 6))
    n = draw(st.integers(min_size, max_size))
    names = [f"p{i}" for i in range(n)]
    pairs = list(combinations(names, 2))
    met = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs))) if pairs else set()
    free = []
    for name in names:
        recent = frozenset(b if a == name else a for a, b in met if name in (a, b))
        free.append(
            Free(
                name,
                rating=draw(st.floats(800, 2500, allow_nan=False)),
                rank=draw(st.integers(1, max(1, n))),
                since=draw(st.floats(0, 100, allow_nan=False)),
                recent=recent,
            )
        )
    return free, seats


def check_shape(free: Sequence[Free], seats: int, tables: list[tuple[str, ...]]) -> None:
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated)), "somebody seated twice"
    assert set(seated) <= {f.player for f in free}, "somebody seated who is not free"
    sizes = [len(t) for t in tables]
    assert all(1 <= s <= seats for s in sizes)
    assert sum(1 for s in sizes if s < seats) <= 1, f"more than one short table: {sizes}"


@settings(max_examples=150, deadline=None)
@given(pools(max_size=9))
def test_up_to_nine_free_the_seating_is_the_least_cost_partition(pool: tuple[list[Free], int]) -> None:
    free, seats = pool
    tables = seat_free(free, seats, now=1000.0)  # everyone waited long enough: all seated
    check_shape(free, seats, tables)
    assert sorted(p for t in tables for p in t) == sorted(f.player for f in free)
    if free:
        assert cost_of(free, tables) == pytest.approx(brute_force(free, seats, len(free) % seats))


@settings(max_examples=100, deadline=None)
@given(pools(max_size=12), st.floats(0, 200))
def test_the_last_freed_wait_until_they_waited_min_wait(
    pool: tuple[list[Free], int], min_wait: float
) -> None:
    free, seats = pool
    now = 100.0
    tables = seat_free(free, seats, now, min_wait=min_wait)
    check_shape(free, seats, tables)
    seated = {p for t in tables for p in t}
    left_over = len(free) % seats
    order = sorted(free, key=lambda f: (f.since, f.player))
    if left_over and now - order[-1].since < min_wait:
        # full tables only, and those waiting are the ones freed last
        assert all(len(t) == seats for t in tables)
        assert seated == {f.player for f in order[: len(free) - left_over]}
    else:
        assert seated == {f.player for f in free}


def previous_tables(names: list[str], seats: int, rng: random.Random) -> dict[str, frozenset[str]]:
    """Who met whom at the last tables: the names shuffled and cut into tables of ``seats``."""
    shuffled = names[:]
    rng.shuffle(shuffled)
    met: dict[str, frozenset[str]] = {}
    for i in range(0, len(shuffled), seats):
        table = shuffled[i : i + seats]
        for p in table:
            met[p] = frozenset(table) - {p}
    return met


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32 - 1), st.data())
def test_beyond_the_exact_size_people_who_just_met_are_kept_apart(
    seats: int, seed: int, data: st.DataObject
) -> None:
    # With as many last tables as seats or more, a seating without a repeat exists (one person from
    # each of `seats` different last tables), so the repeat cost must keep everyone apart.
    tables_before = data.draw(st.integers(max(seats, EXACT_LIMIT // seats + 1), 60 // seats))
    names = [f"p{i}" for i in range(tables_before * seats)]
    assert len(names) > EXACT_LIMIT
    rng = random.Random(seed)
    met = previous_tables(names, seats, rng)
    free = [Free(n, rng.uniform(1000, 2200), rng.randint(1, len(names)), 0.0, met[n]) for n in names]
    tables = seat_free(free, seats, now=1.0)
    check_shape(free, seats, tables)
    assert all(len(t) == seats for t in tables)
    repeats = [(a, b) for t in tables for a, b in combinations(t, 2) if b in met[a]]
    assert not repeats, repeats


def test_close_ranks_sit_together_and_a_repeat_costs_more_than_any_rank_gap() -> None:
    free = [Free(f"p{r}", 1500.0, r, 0.0) for r in range(1, 7)]
    assert seat_free(free, 3, now=0.0) == [("p1", "p2", "p3"), ("p4", "p5", "p6")]
    # p1 and p2 just met: they are kept apart, at the cost of wider ranks
    met = {"p1": frozenset({"p2"}), "p2": frozenset({"p1"})}
    free = [Free(f.player, f.rating, f.rank, f.since, met.get(f.player, frozenset())) for f in free]
    tables = seat_free(free, 3, now=0.0)
    assert not any({"p1", "p2"} <= set(t) for t in tables)
    assert cost_of(free, tables) < REPEAT


def test_a_player_alone_is_seated_with_bots_or_waits() -> None:
    lone = [Free("ana", 1500.0, 1, since=10.0)]
    assert seat_free(lone, 3, now=10.0) == [("ana",)]
    assert seat_free(lone, 3, now=12.0, min_wait=5.0) == []
    assert seat_free(lone, 3, now=15.0, min_wait=5.0) == [("ana",)]
    assert seat_free([], 3, now=0.0) == []


def test_sixty_free_are_seated_in_full_tables() -> None:
    rng = random.Random(5)
    free = [Free(f"p{i}", rng.uniform(1000, 2000), i + 1, rng.uniform(0, 9)) for i in range(61)]
    tables = seat_free(free, 3, now=10.0, min_wait=30.0)
    check_shape(free, 3, tables)
    assert len(tables) == 20 and all(len(t) == 3 for t in tables)


def test_bad_pools_are_refused_by_name() -> None:
    with pytest.raises(EventInputError, match="at least 2 seats, not 1"):
        seat_free([Free("a", 1500.0, 1, 0.0)], 1, now=0.0)
    with pytest.raises(EventInputError, match=r"listed twice: \['a'\]"):
        seat_free([Free("a", 1500.0, 1, 0.0), Free("a", 1400.0, 2, 0.0)], 3, now=0.0)


def test_the_events_benchmark_runs_short(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.benchmark_scripts import load_script

    assert load_script("events.py").main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "| 2 | 5 |" in out  # the Swiss's second round: 5 tables of 20 players
    assert "| 60 | 5 |" in out and "| 1000 | 100 |" in out
