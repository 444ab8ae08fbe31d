"""Matching people who pressed "Play now" (:mod:`cardhall.server.matching`): scenarios, and properties of
any wave (Hypothesis): nobody twice, no blocked pair, no recent pair too soon, ratings within both bands,
seats never over a table's size, everyone due his bots seated, people-only never with a bot; and over
waves in time, everyone who accepts bots dealt within his bound."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.server.matching import (
    BAND_START,
    BOT_WAIT,
    RECENT_GRACE,
    TAKEOVER_AFTER,
    NewTable,
    OpenTable,
    Seeker,
    Wave,
    bound,
    due,
    fits,
    match,
    next_due,
)


def seeker(player: str, rating: float = 1500, since: float = 0, **kw: object) -> Seeker:
    return Seeker(player, rating, since, **kw)  # type: ignore[arg-type]


def test_three_people_for_hokm_make_a_table_of_people() -> None:
    wave = match([seeker("a"), seeker("b", since=1), seeker("c", since=2)], seats=3, now=3)
    assert wave.tables == [NewTable(("a", "b", "c"), 0)]


def test_two_people_wait_for_a_third_until_the_bound_then_get_a_bot() -> None:
    waiting = [seeker("a"), seeker("b", since=2)]
    assert match(waiting, 3, now=BOT_WAIT - 0.1).tables == []
    assert match(waiting, 3, now=BOT_WAIT).tables == [NewTable(("a", "b"), 1)]


def test_with_bots_now_seats_him_at_once_with_whoever_waits() -> None:
    wave = match([seeker("a", since=0), seeker("b", since=1, choice="now")], 4, now=1)
    assert wave.tables == [NewTable(("a", "b"), 2)]


def test_people_only_waits_past_the_bound_and_is_never_given_a_bot() -> None:
    waiting = [seeker("a", choice="people_only"), seeker("b", since=1)]
    wave = match(waiting, 3, now=BOT_WAIT * 10)
    assert wave.tables == [NewTable(("b",), 2)]  # b, due, goes with bots; a does not come along
    assert "a" not in wave.seated()


def test_a_blocked_pair_is_never_seated_together() -> None:
    waiting = [seeker("a", avoid=frozenset({"b"})), seeker("b"), seeker("c")]
    wave = match(waiting, 2, now=BOT_WAIT)
    assert all({"a", "b"} - set(t.players) for t in wave.tables)
    assert sorted(wave.seated()) == ["a", "b", "c"]


def test_people_who_just_played_wait_apart_for_the_grace_then_may_meet() -> None:
    waiting = [seeker("a", recent=frozenset({"b"}), choice="people_only"), seeker("b", choice="people_only")]
    assert match(waiting, 2, now=RECENT_GRACE - 1).tables == []
    assert match(waiting, 2, now=RECENT_GRACE).tables == [NewTable(("a", "b"), 0)]


def test_ratings_far_apart_wait_until_the_bands_widen() -> None:
    waiting = [
        seeker("a", 1500, choice="people_only"),
        seeker("b", 1500 + 2 * BAND_START, choice="people_only"),
    ]
    assert match(waiting, 2, now=0).tables == []
    assert match(waiting, 2, now=60).tables == [NewTable(("a", "b"), 0)]


def test_the_nearest_rating_is_chosen_first() -> None:
    waiting = [seeker("a", 1500), seeker("far", 1600, since=0.5), seeker("near", 1510, since=1)]
    assert match(waiting, 2, now=1).tables == [NewTable(("a", "near"), 0)]


def test_a_leaver_waits_behind_those_who_stay() -> None:
    waiting = [seeker("leaver", since=0, leaves=2), seeker("stays", since=5), seeker("c", since=6)]
    assert match(waiting, 2, now=6).tables == [NewTable(("stays", "c"), 0)]
    assert not due(waiting[0], BOT_WAIT + 1, BOT_WAIT)  # (his bound counts from 10 s later)


def test_a_bots_seat_at_a_table_of_people_goes_to_a_person_who_fits_everyone_there() -> None:
    table = OpenTable("t1", (seeker("x"), seeker("y", avoid=frozenset({"blocked"}))), open=1)
    waiting = [seeker("blocked"), seeker("fits", since=1)]
    assert match(waiting, 3, now=2, open_tables=[table]).takeovers == []  # (a table of people first)
    wave = match(waiting, 3, now=1 + TAKEOVER_AFTER, open_tables=[table])
    assert [(t.table, t.player) for t in wave.takeovers] == [("t1", "fits")]
    assert "blocked" not in wave.seated()


def test_people_only_takes_only_a_tables_last_bots_seat() -> None:
    table = OpenTable("t1", (seeker("x"),), open=2)
    now = TAKEOVER_AFTER
    assert match([seeker("p", choice="people_only")], 3, now, open_tables=[table]).takeovers == []
    table = OpenTable("t1", (seeker("x"), seeker("y")), open=1)
    assert len(match([seeker("p", choice="people_only")], 3, now, open_tables=[table]).takeovers) == 1


@pytest.mark.parametrize(
    ("bad", "kwargs"),
    [("seats", {"seats": 0}), ("bot_wait", {"bot_wait": -1})],
)
def test_bad_arguments_are_refused_by_name(bad: str, kwargs: dict[str, float]) -> None:
    args: dict[str, float] = {"seats": 3, "now": 0, **kwargs}
    with pytest.raises(ValueError, match=bad):
        match([], **args)  # type: ignore[arg-type]


def test_a_bad_choice_and_a_person_twice_are_refused() -> None:
    with pytest.raises(ValueError, match="choice"):
        seeker("a", choice="maybe")
    with pytest.raises(ValueError, match="twice"):
        match([seeker("a"), seeker("a")], 3, now=0)


def test_next_due_is_the_earliest_bound() -> None:
    assert next_due([seeker("a", since=3), seeker("b", since=1, leaves=1)], now=4) == 3 + BOT_WAIT
    assert next_due([seeker("a", choice="people_only")], now=4) is None


# --- properties ------------------------------------------------------------------------------------

NAMES = [f"p{i}" for i in range(14)]


@st.composite
def seekers(draw: st.DrawFn) -> list[Seeker]:
    names = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=len(NAMES)))
    out = []
    for name in names:
        others = st.sets(st.sampled_from(NAMES), max_size=3).map(frozenset)
        out.append(
            Seeker(
                name,
                draw(st.floats(1000, 2200)),
                draw(st.floats(0, 60)),
                draw(st.sampled_from(["after_wait", "now", "people_only"])),
                draw(others),
                draw(others),
                draw(st.integers(0, 8)),
            )
        )
    return out


@st.composite
def open_tables(draw: st.DrawFn, seats: int) -> list[OpenTable]:
    tables = []
    for i in range(draw(st.integers(0, 3))):
        people = draw(st.integers(1, seats - 1)) if seats > 1 else 0
        tables.append(
            OpenTable(
                f"t{i}",
                tuple(Seeker(f"seated{i}-{j}", 1500, 0) for j in range(people)),
                seats - people,
                draw(st.floats(0, 150)),
            )
        )
    return [t for t in tables if t.open > 0]


def check_wave(
    wave: Wave, waiting: list[Seeker], seats: int, now: float, bot_wait: float, tables: list[OpenTable]
) -> None:
    by_name = {s.player: s for s in waiting}
    seated = wave.seated()
    assert len(seated) == len(set(seated)), "a person twice"
    assert set(seated) <= set(by_name)
    for made in wave.tables:
        assert 1 <= len(made.players) <= seats and made.bots == seats - len(made.players)
        group = [by_name[p] for p in made.players]
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                assert fits(a, b, now), (a, b)
            if made.bots:
                assert a.choice != "people_only", (a, made)
    open_left = {t.table: t.open for t in tables}
    for takeover in wave.takeovers:
        open_left[takeover.table] -= 1
        assert open_left[takeover.table] >= 0, "more people than a table's bots' seats"
        table = next(t for t in tables if t.table == takeover.table)
        assert all(fits(by_name[takeover.player], p, now) for p in table.people)
        assert table.next_deal <= bound(by_name[takeover.player], now, bot_wait)
        assert by_name[takeover.player].waited(now) >= TAKEOVER_AFTER
        if by_name[takeover.player].choice == "people_only":
            assert open_left[takeover.table] == 0
    for s in waiting:
        if s.player not in seated:
            assert not due(s, now, bot_wait), f"{s} was due his bots and left waiting"


@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(1, 8), st.floats(0, 120), st.floats(0, 30))
def test_any_wave_keeps_every_rule(data: st.DataObject, seats: int, now: float, bot_wait: float) -> None:
    waiting = data.draw(seekers())
    tables = data.draw(open_tables(seats))
    wave = match(waiting, seats, now, bot_wait, tables)
    check_wave(wave, waiting, seats, now, bot_wait, tables)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 40), st.floats(1200, 1800), st.sampled_from(["after_wait", "now"])),
        max_size=30,
    ),
    st.integers(2, 8),
    st.floats(1, 3),
)
def test_over_waves_everyone_who_accepts_bots_is_seated_within_his_bound(
    arrivals: list[tuple[float, float, str]], seats: int, every: float
) -> None:
    """Waves every ``every`` seconds: each person who accepts bots is in a table by the first wave at or
    after his bound (the bound he saw counting, plus at most one wave)."""
    people = [Seeker(f"p{i}", r, t, c) for i, (t, r, c) in enumerate(sorted(arrivals))]  # type: ignore[arg-type]
    waiting: list[Seeker] = []
    seated_at: dict[str, float] = {}
    now = 0.0
    while now < 40 + BOT_WAIT + 2 * every:
        waiting += [p for p in people if now - every < p.since <= now or (now == 0 and p.since == 0)]
        wave = match(waiting, seats, now)
        seated_at.update((p, now) for p in wave.seated())
        waiting = [s for s in waiting if s.player not in seated_at]
        now += every
    for p in people:
        assert p.player in seated_at, p
        assert seated_at[p.player] <= p.counted_from + BOT_WAIT + every, (p, seated_at[p.player])


def test_a_bots_seat_is_taken_only_if_its_next_deal_comes_within_his_bound() -> None:
    later = OpenTable("t1", (seeker("x"),), open=2, next_deal=100)
    soon = OpenTable("t2", (seeker("y"),), open=2, next_deal=5)
    wave = match([seeker("a", since=0)], 3, now=TAKEOVER_AFTER, open_tables=[later, soon])
    assert [(t.table, t.player) for t in wave.takeovers] == [("t2", "a")]
    last = OpenTable("t1", (seeker("x"),), open=1, next_deal=100)
    wave = match([seeker("a", since=0, choice="people_only")], 2, now=TAKEOVER_AFTER, open_tables=[last])
    assert [(t.table, t.player) for t in wave.takeovers] == [("t1", "a")]
