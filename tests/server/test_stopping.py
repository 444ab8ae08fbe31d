"""Background tasks end in bounded time when the server stops (:mod:`cardhall.server.stopping`), even
when a cancellation is swallowed, as Python 3.11's ``asyncio.wait_for`` can swallow one (it returns
the result that arrived in the same turn instead): a lease keeper whose store swallowed the
cancellation of a renewal once went on renewing after SIGTERM, and its worker never stopped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import cast

import pytest

from cardhall.server.cluster.leases import LeaseKeeper
from cardhall.server.committer import Committer
from cardhall.server.stopping import cancel_and_wait
from cardhall.store import ActionRow, Store, TableRow

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _deaf(times: float, heard: asyncio.Event | None = None) -> None:
    """A loop that swallows its first ``times`` cancellations (all of them until ``heard`` is set)."""
    swallowed = 0
    while True:
        try:
            await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            swallowed += 1
            if swallowed > times or (heard is not None and heard.is_set()):
                raise


async def test_a_task_that_swallows_its_cancellation_once_is_cancelled_again_and_ends() -> None:
    task = asyncio.create_task(_deaf(1), name="deaf once")
    await asyncio.sleep(0.05)
    began = time.monotonic()
    assert await cancel_and_wait([task], seconds=10) == []
    assert task.cancelled() and time.monotonic() - began < 5


async def test_a_task_that_never_ends_is_left_behind_after_the_bound_not_waited_for() -> None:
    heard = asyncio.Event()
    task = asyncio.create_task(_deaf(float("inf"), heard), name="deaf")
    await asyncio.sleep(0.05)  # (running: a task cancelled before it starts never runs at all)
    began = time.monotonic()
    assert await cancel_and_wait([task], seconds=0.5) == [task]
    assert time.monotonic() - began < 3 and not task.done()
    heard.set()  # (so that the test's loop can end)
    assert await cancel_and_wait([task]) == []


class SwallowsOnce:
    """A store's call that, cancelled, answers anyway the first time (the wait_for of 3.11)."""

    def __init__(self) -> None:
        self.swallowed = 0
        self.calling = asyncio.Event()  # (set while a call is under way)

    async def _call(self) -> None:
        self.calling.set()
        try:
            await asyncio.sleep(0.2)
        except asyncio.CancelledError:
            if self.swallowed:
                raise
            self.swallowed += 1
        finally:
            self.calling.clear()


class SwallowingStore(SwallowsOnce):
    """A store whose renewal swallows its cancellation once."""

    def __init__(self) -> None:
        super().__init__()
        self.renewals = 0

    async def renew(self, node: str, seconds: float) -> set[str]:
        self.renewals += 1
        await self._call()
        return set()

    async def expired(self, limit: int) -> list[str]:
        return []


async def test_a_lease_keeper_whose_renewal_swallowed_its_cancellation_stops_all_the_same() -> None:
    store = SwallowingStore()

    async def adopt(rows: Sequence[TableRow]) -> None:
        pass

    keeper = LeaseKeeper(cast(Store, store), "n0", adopt, lambda table: True, lease_seconds=0.2)
    await keeper.start()  # (its first renewal, then one every RENEW_SECONDS in a task)
    while store.renewals < 2 or not store.calling.is_set():
        await asyncio.sleep(0.01)
    await asyncio.wait_for(keeper.stop(), timeout=10)  # (the cancellation lands in the renewal)
    assert store.swallowed == 1
    after = store.renewals
    await asyncio.sleep(0.3)
    assert store.renewals == after  # (no renewal after the stop)


class SwallowingAppends(SwallowsOnce):
    """A store whose append of actions swallows its cancellation once."""

    async def append_actions(self, actions: Sequence[ActionRow], fences: object = None) -> None:
        await self._call()


async def test_a_committer_whose_append_swallowed_its_cancellation_stops_all_the_same() -> None:
    store = SwallowingAppends()
    committer = Committer(cast(Store, store))
    committer.start()
    waiter = asyncio.create_task(committer.commit([ActionRow("t", 1, 0, 5)]))
    await store.calling.wait()
    await asyncio.wait_for(committer.stop(), timeout=10)  # (the cancellation lands in the append)
    assert store.swallowed == 1
    await waiter  # (the append answered: its waiter was told so)
