"""Table leases and fencing in the store (:mod:`cardhall.server.cluster.leases`), on SQLite and on
PostgreSQL: a table is taken only when its lease ran out or was released, taking it raises its fence,
renewals answer which tables a process still holds, and a process that lost a table can write nothing
of it any more (actions, seats, its end), while the new owner writes on from what is stored."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from cardhall.store import ActionRow, FencedError, SqlStore, TableStatus, open_store
from tests.test_store import PERSISTENT, new_url, table_row

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=PERSISTENT)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    opened = await open_store(new_url(request.param, request, tmp_path))
    assert isinstance(opened, SqlStore)
    yield opened
    await opened.close()


async def test_a_new_table_is_leased_to_its_maker_and_not_taken_while_renewed(store: SqlStore) -> None:
    await store.save_table(table_row("t", status="playing", node="a"))
    assert await store.owner("t") == "a"
    assert await store.claim("b", 3.0, 10) == []
    assert await store.renew("a", 3.0) == {"t"}
    assert await store.renew("b", 3.0) == set()


async def test_a_table_whose_lease_ran_out_is_taken_with_its_fence_raised(store: SqlStore) -> None:
    await store.save_table(table_row("t", status="playing", node="a"))
    await store.renew("a", 0.05)
    await asyncio.sleep(0.2)
    assert await store.owner("t") is None
    (taken,) = await store.claim("b", 3.0, 10)
    assert (taken.id, taken.node, taken.fence) == ("t", "b", 2)
    assert await store.owner("t") == "b"
    assert await store.renew("a", 3.0) == set()  # the old owner learns it lost the table
    assert await store.claim("c", 3.0, 10) == []  # and nobody else takes it from b


async def test_a_stale_owner_can_write_no_action_and_the_new_owner_goes_on(store: SqlStore) -> None:
    await store.save_table(table_row("t", status="playing", node="a"))
    await store.append_actions([ActionRow("t", 1, 0, 5)], {"t": 1})
    await store.release("a")
    (taken,) = await store.claim("b", 3.0, 10)
    with pytest.raises(FencedError) as refused:
        await store.append_actions([ActionRow("t", 2, 1, 6)], {"t": 1})
    assert refused.value.tables == ("t",)
    assert await store.actions("t") == [(0, 5)]  # nothing of the stale write
    await store.append_actions([ActionRow("t", 2, 1, 7)], {"t": taken.fence})
    assert await store.actions("t") == [(0, 5), (1, 7)]


async def test_a_batch_with_one_stale_table_writes_none_of_its_tables(store: SqlStore) -> None:
    await store.save_table(table_row("t", status="playing", node="a"))
    await store.save_table(table_row("u", status="playing", node="a"))
    await store.release("a", ["t"])
    await store.claim("b", 3.0, 10)
    with pytest.raises(FencedError) as refused:
        await store.append_actions([ActionRow("t", 1, 0, 5), ActionRow("u", 1, 0, 5)], {"t": 1, "u": 1})
    assert refused.value.tables == ("t",)
    assert await store.actions("u") == []
    await store.append_actions([ActionRow("u", 1, 0, 5)], {"u": 1})  # u alone is still a's
    assert await store.actions("u") == [(0, 5)]


async def test_a_stale_owner_can_change_no_seat_nor_finish_the_match(store: SqlStore) -> None:
    row = table_row("t", status="playing", node="a")
    await store.save_table(row)
    await store.release("a")
    (taken,) = await store.claim("b", 3.0, 10)
    with pytest.raises(FencedError):
        await store.save_table(replace(row, status=TableStatus.ABANDONED))
    with pytest.raises(FencedError):
        await store.finish(replace(row, status=TableStatus.FINISHED), [], [])
    stored = await store.table("t")
    assert stored is not None and stored.status == TableStatus.PLAYING
    await store.save_table(replace(row, status=TableStatus.ABANDONED, fence=taken.fence))
    stored = await store.table("t")
    assert stored is not None and stored.status == TableStatus.ABANDONED


async def test_finished_tables_are_never_claimed_and_claims_are_bounded(store: SqlStore) -> None:
    for n in range(5):
        await store.save_table(table_row(f"t{n}", status="playing"))
    await store.save_table(table_row("done", status="finished"))
    first = await store.claim("a", 3.0, 3)
    second = await store.claim("b", 3.0, 3)
    assert len(first) == 3 and len(second) == 2
    assert {r.id for r in first} | {r.id for r in second} == {f"t{n}" for n in range(5)}
