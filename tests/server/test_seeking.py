"""The hall's queue of people looking for a game (:mod:`cardhall.server.seeking`), the same checks on
the one process's queue and on Redis: one pool at a time, taken out once (two waves racing for the same
people seat each person once), put back as they were, the usual wait, one runner per pool."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from cardhall.server.matching import Seeker
from cardhall.server.seeking import MemorySeekers, RedisSeekers, Seekers, decode_seeker, encode_seeker

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["memory", "redis"])
async def seekers(request: pytest.FixtureRequest) -> AsyncIterator[Seekers]:
    if request.param == "memory":
        yield MemorySeekers()
        return
    queue = RedisSeekers(request.getfixturevalue("redis_url"))
    try:
        yield queue
    finally:
        await queue.close()


def person(name: str, since: float = 100.0) -> Seeker:
    return Seeker(name, 1500.0, since, "after_wait", frozenset({"x"}), frozenset({"y", "z"}), 1)


def test_a_seeker_crosses_the_wire_whole() -> None:
    s = Seeker("ann", 1612.5, 1765432100.25, "people_only", frozenset({"b", "c"}), frozenset(), 3)
    assert decode_seeker(encode_seeker(s)) == s


async def test_one_pool_at_a_time(seekers: Seekers) -> None:
    assert await seekers.add("hokm", person("ann")) is None
    assert await seekers.add("kierki", person("ann")) == "hokm"
    assert await seekers.pool_of("ann") == "kierki"
    assert await seekers.waiting("hokm") == []
    assert [s.player for s in await seekers.waiting("kierki")] == ["ann"]
    assert await seekers.counts() == {"kierki": 1}
    assert await seekers.remove("ann") == "kierki"
    assert await seekers.remove("ann") is None
    assert await seekers.counts() == {}


async def test_a_claim_takes_only_those_still_waiting_there_and_each_once(seekers: Seekers) -> None:
    for name in ("a", "b", "c"):
        await seekers.add("hokm", person(name))
    await seekers.add("kierki", person("d"))
    await seekers.remove("c")
    assert await seekers.claim("hokm", ["a", "b", "c", "d"]) == ["a", "b"]
    assert await seekers.claim("hokm", ["a", "b"]) == []
    assert await seekers.waiting("hokm") == []
    assert await seekers.pool_of("d") == "kierki"


async def test_two_waves_racing_for_the_same_people_seat_each_once(seekers: Seekers) -> None:
    names = [f"p{i}" for i in range(30)]
    for name in names:
        await seekers.add("hokm", person(name))
    first, second = await asyncio.gather(seekers.claim("hokm", names), seekers.claim("hokm", names[::-1]))
    assert sorted(first + second) == sorted(names)
    assert not set(first) & set(second)


async def test_a_table_not_made_puts_its_people_back_as_they_were(seekers: Seekers) -> None:
    ann, bob = person("ann", 50.0), person("bob", 60.0)
    await seekers.add("hokm", ann)
    await seekers.add("hokm", bob)
    assert await seekers.claim("hokm", ["ann", "bob"]) == ["ann", "bob"]
    await seekers.add("svara", person("bob", 70.0))  # (bob pressed again, elsewhere, meanwhile)
    await seekers.put_back("hokm", [ann, bob])
    assert await seekers.waiting("hokm") == [ann]
    assert await seekers.pool_of("bob") == "svara"


async def test_the_usual_wait_is_the_median_of_the_last_waits(seekers: Seekers) -> None:
    assert await seekers.usual_wait("hokm") is None
    for seconds in [1.0, 9.0, 3.0] + [5.0] * 60:
        await seekers.record_wait("hokm", seconds)
    assert await seekers.usual_wait("hokm") == 5.0
    await seekers.record_wait("kierki", 2.5)
    assert await seekers.usual_wait("kierki") == 2.5


async def test_one_process_runs_a_pools_waves_until_its_lease_lapses(redis_url: str) -> None:
    a, b = RedisSeekers(redis_url), RedisSeekers(redis_url)
    try:
        assert await a.lead("hokm", "n0", 0.3)
        assert not await b.lead("hokm", "n1", 0.3)
        assert await a.lead("hokm", "n0", 0.3)  # (renewed by its holder)
        assert await b.lead("kierki", "n1", 0.3)  # (another pool, another runner)
        await asyncio.sleep(0.4)
        assert await b.lead("hokm", "n1", 0.3)  # (n0 stopped renewing: died)
    finally:
        await a.close()
        await b.close()
