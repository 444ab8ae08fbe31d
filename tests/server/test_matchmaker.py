"""The waves of "Play now" (:mod:`cardhall.server.matchmaker`) over the hall's queue: a table made with
everyone it chose, nobody at two tables when people leave mid-wave or a table cannot be made (they wait
again, their waits kept), two processes waving one Redis queue at once seat each person once, a leader
that dies hands its pools over, and the loop runs a wave when poked and when someone is due his bots."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

import pytest

from cardhall.server import matchmaker as matchmaker_module
from cardhall.server.matching import NewTable, OpenTable, Seeker
from cardhall.server.matchmaker import Matchmaker, Pool
from cardhall.server.seeking import MemorySeekers, RedisSeekers, Seekers

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Hall:
    """The caller's side: tables made (by pool) and bots' seats given, in memory."""

    def __init__(self, fail: bool = False) -> None:
        self.tables: list[tuple[str, NewTable]] = []
        self.given: list[tuple[str, str]] = []
        self.fail = fail
        self.ids = itertools.count(1)
        self.offered: list[OpenTable] = []

    async def make_table(self, pool: str, table: NewTable, people: list[Seeker]) -> str:
        if self.fail:
            raise RuntimeError("the store failed")
        assert [p.player for p in people] == list(table.players)
        self.tables.append((pool, table))
        return f"t{next(self.ids)}"

    async def give_seat(self, table: str, person: Seeker) -> bool:
        self.given.append((table, person.player))
        return True

    async def open_tables(self, pool: str) -> list[OpenTable]:
        return self.offered

    def seated(self) -> list[str]:
        return [p for _, t in self.tables for p in t.players] + [p for _, p in self.given]


def maker(queue: Seekers, hall: Hall, node: str = "n0", clock: list[float] | None = None) -> Matchmaker:
    times = clock if clock is not None else [1000.0]
    return Matchmaker(
        queue,
        node,
        lambda pool: Pool(seats=3, bot_wait=10.0),
        hall.make_table,
        hall.give_seat,
        hall.open_tables,
        clock=lambda: times[0],
    )


def person(name: str, since: float = 1000.0) -> Seeker:
    return Seeker(name, 1500.0, since)


async def test_a_wave_seats_three_people_at_one_table_and_records_their_waits() -> None:
    queue, hall = MemorySeekers(), Hall()
    for i, name in enumerate("abc"):
        await queue.add("hokm", person(name, 990.0 + i))
    await maker(queue, hall).wave("hokm")
    assert hall.tables == [("hokm", NewTable(("a", "b", "c"), 0))]
    assert await queue.counts() == {}
    assert await queue.usual_wait("hokm") == 9.0


class Leaving(MemorySeekers):
    """A queue where ``who`` leaves just before the wave claims his table."""

    def __init__(self, who: str) -> None:
        super().__init__()
        self.who = who

    async def claim(self, pool: str, players: list[str]) -> list[str]:
        await self.remove(self.who)
        return await super().claim(pool, players)


async def test_a_person_who_leaves_mid_wave_spoils_the_table_and_the_others_wait_again() -> None:
    queue, hall = Leaving("b"), Hall()
    for name in "abc":
        await queue.add("hokm", person(name, 995.0))
    await maker(queue, hall).wave("hokm")
    assert hall.tables == []
    assert sorted(s.player for s in await queue.waiting("hokm")) == ["a", "c"]
    assert {s.since for s in await queue.waiting("hokm")} == {995.0}


async def test_a_table_that_cannot_be_made_puts_its_people_back() -> None:
    queue, hall = MemorySeekers(), Hall(fail=True)
    for name in "abc":
        await queue.add("hokm", person(name, 990.0))
    await maker(queue, hall).wave("hokm")
    assert sorted(s.player for s in await queue.waiting("hokm")) == ["a", "b", "c"]


async def test_a_bots_seat_is_given_to_a_person_who_waited(redis_url: str) -> None:
    queue, hall = RedisSeekers(redis_url), Hall()
    try:
        hall.offered = [OpenTable("t9", (person("x"),), open=2, next_deal=1001.0)]
        await queue.add("hokm", person("a", 995.0))
        await maker(queue, hall).wave("hokm")
        assert hall.given == [("t9", "a")] and await queue.counts() == {}
        assert await queue.usual_wait("hokm") == 5.0  # (his wait counts as one)
    finally:
        await queue.close()


@pytest.fixture
async def two_queues(redis_url: str) -> AsyncIterator[tuple[RedisSeekers, RedisSeekers]]:
    a, b = RedisSeekers(redis_url), RedisSeekers(redis_url)
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def test_two_processes_waving_one_queue_at_once_seat_each_person_once(
    two_queues: tuple[RedisSeekers, RedisSeekers], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_queues
    hall = Hall()
    names = [f"p{i}" for i in range(31)]
    for name in names:
        await a.add("hokm", person(name, 980.0))  # (all due: the last ones get bots)
    # Each leads in turn (the lease lapses at once), so both really wave the same people.
    monkeypatch.setattr(matchmaker_module, "LEAD_SECONDS", 0.001)
    first, second = maker(a, hall, "n0"), maker(b, hall, "n1")
    for _ in range(4):
        await asyncio.gather(first.wave("hokm"), second.wave("hokm"))
        await asyncio.sleep(0.01)
    seated = hall.seated()
    assert sorted(seated) == sorted(names), "a person seated twice, or lost"
    assert all(len(t.players) + t.bots == 3 for _, t in hall.tables)


async def test_a_leader_that_dies_hands_its_pools_to_another(
    two_queues: tuple[RedisSeekers, RedisSeekers], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_queues
    monkeypatch.setattr(matchmaker_module, "LEAD_SECONDS", 0.3)
    hall = Hall()
    await a.add("hokm", person("a", 999.0))
    leader, other = maker(a, hall, "n0"), maker(b, hall, "n1")
    assert await leader.wave("hokm") is not None  # (n0 leads; nobody due yet)
    assert await other.wave("hokm") is None
    await asyncio.sleep(0.4)  # (n0 died: it renews nothing)
    for name in "bc":
        await b.add("hokm", person(name, 999.5))
    assert await other.wave("hokm") is not None
    assert hall.tables == [("hokm", NewTable(("a", "b", "c"), 0))]


async def test_the_loop_waves_when_poked_and_when_someone_is_due(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matchmaker_module, "WAVE_GAP", 0.01)
    queue, hall = MemorySeekers(), Hall()
    loop = asyncio.get_running_loop()
    m = Matchmaker(
        queue,
        "n0",
        lambda pool: Pool(seats=3, bot_wait=0.3),
        hall.make_table,
        hall.give_seat,
        hall.open_tables,
        clock=loop.time,
        every=60.0,  # (no wave from the timer alone within the test)
    )
    m.start()
    try:
        await queue.add("hokm", Seeker("a", 1500.0, loop.time()))
        m.poke()
        await asyncio.sleep(0.1)
        assert hall.tables == []  # (alone, not due yet)
        await asyncio.sleep(0.5)
        assert hall.tables == [("hokm", NewTable(("a",), 2))]  # (due after 0.3 s: woken for it)
        for name in "bcd":
            await queue.add("hokm", Seeker(name, 1500.0, loop.time()))
        m.poke()
        await asyncio.sleep(0.1)
        assert hall.tables[1:] == [("hokm", NewTable(("b", "c", "d"), 0))]
    finally:
        await m.stop()


class Unreadable(MemorySeekers):
    """A queue whose pools cannot be read the first ``failures`` times (Redis down a moment)."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    async def counts(self) -> dict[str, int]:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("Redis is down")
        return await super().counts()


async def test_the_loop_outlives_a_queue_it_cannot_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matchmaker_module, "WAVE_GAP", 0.01)
    queue, hall = Unreadable(failures=1), Hall()
    loop = asyncio.get_running_loop()
    m = Matchmaker(
        queue,
        "n0",
        lambda pool: Pool(seats=3, bot_wait=0.3),
        hall.make_table,
        hall.give_seat,
        hall.open_tables,
        clock=loop.time,
        every=0.05,
    )
    m.start()
    try:
        for name in "abc":
            await queue.add("hokm", Seeker(name, 1500.0, loop.time()))
        await asyncio.sleep(0.3)
        assert queue.failures == 0 and hall.tables == [("hokm", NewTable(("a", "b", "c"), 0))]
    finally:
        await m.stop()
