"""Table leases and fencing in the store (:mod:`cardhall.server.cluster.leases`), on SQLite and on
PostgreSQL: a table is taken only when its lease ran out or was released, taking it raises its fence,
renewals answer which tables a process still holds, and a process that lost a table can write nothing
of it any more (actions, seats, its end), while the new owner writes on from what is stored."""

from __future__ import annotations

import asyncio
import gc
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, literal_column, select, text
from sqlalchemy.exc import IntegrityError

from cardhall.server.cluster.leases import LeaseKeeper
from cardhall.store import LEASE_SECONDS, ActionRow, FencedError, SqlStore, TableRow, TableStatus, open_store
from tests.store.test_store import PERSISTENT, T0, new_url, table_row

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
    await store.renew("a", 3.0)  # (a process holds its lease before it makes a table)
    await store.save_table(table_row("t", status="playing", node="a"))
    assert await store.owner("t") == "a"
    assert await store.claim("b", 3.0, 10) == []
    assert await store.renew("a", 3.0) == {"t"}
    assert await store.renew("b", 3.0) == set()


async def test_a_table_whose_lease_ran_out_is_taken_with_its_fence_raised(store: SqlStore) -> None:
    await store.renew("a", 0.05)
    await store.save_table(table_row("t", status="playing", node="a"))
    await asyncio.sleep(0.2)
    assert await store.owner("t") is None
    (taken,) = await store.claim("b", 3.0, 10)
    assert (taken.id, taken.node, taken.fence) == ("t", "b", 2)
    assert await store.owner("t") == "b"
    assert await store.renew("a", 3.0) == set()  # the old owner learns it lost the table
    assert await store.claim("c", 3.0, 10) == []  # and nobody else takes it from b


async def test_a_stale_owner_can_write_no_action_and_the_new_owner_goes_on(store: SqlStore) -> None:
    await store.renew("a", 60.0)
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
    await store.renew("a", 60.0)
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


async def test_a_batch_waiting_on_a_takeover_in_progress_writes_nothing_once_it_lands(
    store: SqlStore,
) -> None:
    """The race the fence is for, on PostgreSQL (SQLite has one writer: no batch runs beside an
    update): another process raises the fence in a transaction not yet committed; a batch of the old
    owner waits for that row's lock, and once the takeover commits it finds the fence moved and writes
    nothing, of that table or of the other in the batch."""
    if store.dialect.name == "sqlite":
        pytest.skip("SQLite writers never overlap")
    await store.renew("a", 60.0)
    await store.renew("b", 60.0)
    await store.save_table(table_row("t", status="playing", node="a"))
    await store.save_table(table_row("u", status="playing", node="a"))
    async with store.engine.connect() as takeover:
        await takeover.execute(
            store.tables_table.update()
            .where(store.tables_table.c.id == "t")
            .values(fence=store.tables_table.c.fence + 1, node="b")
        )
        batch = asyncio.create_task(
            store.append_actions([ActionRow("t", 1, 0, 5), ActionRow("u", 1, 0, 5)], {"t": 1, "u": 1})
        )
        await asyncio.sleep(0.5)
        assert not batch.done()  # (waiting for the takeover's lock on t)
        await takeover.commit()
    with pytest.raises(FencedError) as refused:
        await batch
    assert refused.value.tables == ("t",)
    assert await store.actions("t") == [] and await store.actions("u") == []
    await store.append_actions([ActionRow("t", 1, 2, 9)], {"t": 2})  # the new owner writes on
    assert await store.actions("t") == [(2, 9)]


async def test_a_stale_owner_can_change_no_seat_nor_finish_the_match(store: SqlStore) -> None:
    await store.renew("a", 60.0)
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


async def test_a_new_table_is_free_once_its_makers_lease_runs_out(store: SqlStore) -> None:
    # (A table made by a process cut off from the store right after making it must not stay out of
    # the others' reach past a lease: tests/server/cluster/test_cluster_faults.py's cut-off case.)
    await store.renew("a", 3.0)  # (long enough to see it owned on a loaded machine, then cut short)
    await store.save_table(table_row("t", status="playing", node="a"))
    assert await store.owner("t") == "a"
    await store.renew("a", 0.05)
    await asyncio.sleep(0.2)
    assert await store.owner("t") is None
    assert await store.expired(10) == ["t"]


async def test_a_renewal_writes_one_row_whatever_the_tables(store: SqlStore) -> None:
    """A process's lease is one row: a renewal changes no table's row (each renewal once wrote and
    locked every table row of its process, and the group commit's fence checks waited behind it)."""
    await store.renew("a", 60.0)
    for n in range(20):
        await store.save_table(table_row(f"t{n}", status="playing", node="a"))
    before = {t: await store.table(t) for t in (f"t{n}" for n in range(20))}
    assert await store.renew("a", 60.0) == {f"t{n}" for n in range(20)}
    assert {t: await store.table(t) for t in before} == before
    async with store.engine.connect() as c:
        nodes = (await c.execute(select(store.nodes_table))).all()
        left = (
            await c.execute(select(store.nodes_table.c.lease_until - literal_column(store.dialect.now)))
        ).scalar_one()
    assert [n.name for n in nodes] == ["a"]
    assert 50 < left <= 60.0
    await store.release("a")
    async with store.engine.connect() as c:
        assert (await c.execute(select(store.nodes_table))).all() == []  # (a process that stopped)
    assert set(await store.expired(30)) == set(before)


async def test_expired_names_the_free_tables_and_a_claim_takes_the_preferred_first(store: SqlStore) -> None:
    await store.renew("a", -1.0)  # (a's lease ran out a second ago)
    for n in range(4):
        created = T0 + timedelta(minutes=n)
        await store.save_table(table_row(f"t{n}", status="playing", node="a", created_at=created))
    await store.save_table(table_row("done", status="finished", created_at=T0))
    assert await store.expired(10) == ["t0", "t1", "t2", "t3"]  # (a's lease ran out)
    await store.renew("a", 60.0)
    assert await store.expired(10) == []  # (leased to a)
    await store.release("a", ["t1", "t2", "t3"])
    assert await store.expired(10) == ["t1", "t2", "t3"]  # oldest first
    assert await store.expired(2) == ["t1", "t2"]
    (first,) = await store.claim("b", 3.0, 1, prefer=["t3"])
    assert first.id == "t3"
    (second,) = await store.claim("b", 3.0, 1, prefer=["absent"])
    assert second.id == "t1"  # then the oldest
    assert await store.expired(10) == ["t2"]


async def test_free_tables_are_those_of_no_node_or_a_dead_one_among_live_ones(store: SqlStore) -> None:
    await store.renew("live", 60.0)
    await store.renew("other", 60.0)
    await store.renew("dead", 0.05)
    owners = {"t0": "live", "t1": "dead", "t2": None, "t3": "other", "t5": "dead"}
    for n, (table_id, node) in enumerate(owners.items()):
        await store.save_table(
            table_row(table_id, status="playing", node=node, created_at=T0 + timedelta(minutes=n))
        )
    await store.save_table(table_row("done", status="finished", node="dead", created_at=T0))
    await asyncio.sleep(0.2)
    assert await store.expired(10) == ["t1", "t2", "t5"]
    taken = await store.claim("other", 60.0, 10)
    assert sorted(row.id for row in taken) == ["t1", "t2", "t5"]
    assert await store.renew("live", 60.0) == {"t0"}


async def test_a_table_names_only_a_process_with_a_lease_row_and_loses_it_with_the_row(
    store: SqlStore,
) -> None:
    """What lets a sweep look only at the tables of no process and of lapsed ones (by an index,
    whatever the number of tables): a table cannot name a process unknown to ``nodes``, and a process's
    row deleted frees its tables."""
    with pytest.raises(IntegrityError):
        await store.save_table(table_row("t", status="playing", node="unknown"))
    assert await store.table("t") is None
    await store.renew("gone", 60.0)
    await store.save_table(table_row("u", status="playing", node="gone"))
    assert await store.expired(10) == []
    async with store.engine.begin() as c:
        await c.execute(delete(store.nodes_table).where(store.nodes_table.c.name == "gone"))
    stored = await store.table("u")
    assert stored is not None and stored.node is None
    assert await store.expired(10) == ["u"]


async def test_a_sweep_reads_only_the_tables_it_may_take(store: SqlStore) -> None:
    """On PostgreSQL the sweep of a hall with many open tables held by live processes reads none of
    them: it read every unfinished table four times a second in each process before."""
    if store.dialect.name == "sqlite":
        pytest.skip("PostgreSQL's plan")
    await store.renew("live", 60.0)
    async with store.engine.begin() as c:
        await c.execute(
            text(
                "INSERT INTO tables (id, game, rules_version, seed, settings, seats, status, created_at,"
                " node) SELECT 't' || g, 'hokm', '1', 7, '{}', '[]', 'playing', now(), 'live'"
                " FROM generate_series(1, 5000) AS g"
            )
        )
        await c.execute(text("ANALYZE tables"))
    leasing = store._leasing()
    async with store.engine.connect() as c:
        lapsed = list((await c.execute(leasing.lapsed)).scalars())
        statement = leasing.expired.params(lapsed=lapsed, limit=64).compile(
            store.engine.sync_engine, compile_kwargs={"literal_binds": True}
        )
        plan = "\n".join(row[0] for row in await c.exec_driver_sql(f"EXPLAIN ANALYZE {statement}"))
    assert "Seq Scan on tables" not in plan, plan
    assert await store.expired(64) == []


async def test_the_actions_of_many_tables_are_read_together_in_order(store: SqlStore) -> None:
    for t in ("t", "u", "v"):
        await store.save_table(table_row(t, status="playing"))
    await store.append_actions([ActionRow("u", 1, 0, 9), ActionRow("t", 1, 0, 5)])
    await store.append_actions([ActionRow("t", 2, 1, 6), ActionRow("u", 2, 2, 3)])
    found = await store.actions_of(["t", "u", "v", "absent"])
    assert found == {
        "t": [ActionRow("t", 1, 0, 5), ActionRow("t", 2, 1, 6)],
        "u": [ActionRow("u", 1, 0, 9), ActionRow("u", 2, 2, 3)],
        "v": [],
        "absent": [],
    }
    assert await store.actions_of([]) == {}


class SweptStore:
    """What a lease keeper's sweep asks of the store: the free tables, then a claim."""

    def __init__(self, free: list[str]) -> None:
        self.free = free
        self.claims: list[list[str]] = []

    async def expired(self, limit: int) -> list[str]:
        return self.free[:limit]

    async def claim(
        self, node: str, seconds: float, limit: int, prefer: Sequence[str] = ()
    ) -> list[TableRow]:
        self.claims.append(list(prefer))
        return []


async def test_a_sweep_claims_only_when_something_is_free_and_the_wanted_tables_first() -> None:
    store = SweptStore([])
    adopted: list[Sequence[TableRow]] = []

    async def adopt(rows: Sequence[TableRow]) -> None:
        adopted.append(rows)

    keeper = LeaseKeeper(store, "a", adopt, lambda _: True, wanted=lambda: {"t2", "elsewhere"})  # type: ignore[arg-type]
    await keeper._claim()
    assert store.claims == []  # nothing free: no write at all
    store.free = ["t1", "t2", "t3"]
    await keeper._claim()
    assert store.claims == [["t2"]]  # the table a connection here is at (and free) first
    assert adopted == []


async def test_renewals_and_fenced_batches_of_many_tables_at_once_never_deadlock(store: SqlStore) -> None:
    """A process's renewal locks all its tables' rows while its group commit's batches lock theirs (share
    locks: the fence check; updates: the seats saved together); on PostgreSQL two statements locking
    many rows in different orders deadlock, one of them fails after a second, and a failed renewal can
    let a 2 s lease run out. Both lock in the order of the tables' ids, so none fails here, however
    the batches are made."""
    rng = random.Random(5)
    ids = [f"t{rng.randrange(10**9):09d}" for _ in range(200)]  # (stored in another order than their ids)
    await store.renew("a", 60.0)
    for table_id in ids:
        await store.save_table(table_row(table_id, status="playing", node="a"))
    fences = {t: row.fence for t in ids if (row := await store.table(t)) is not None}
    numbers = dict.fromkeys(ids, 0)

    async def batches() -> None:
        for _ in range(15):
            chosen = rng.sample(ids, 120)  # (a batch's tables in any order)
            actions = []
            for table_id in chosen:
                numbers[table_id] += 1
                actions.append(ActionRow(table_id, numbers[table_id], 0, 1))
            await store.append_actions(actions, {t: fences[t] for t in chosen})

    async def seat_saves() -> None:
        for _ in range(15):
            chosen = rng.sample(ids, 60)  # (the group commit's seat changes of many tables at once)
            await store.save_tables([row for t in chosen if (row := stored[t]) is not None])

    async def renewals() -> None:
        for _ in range(30):
            assert await store.renew("a", LEASE_SECONDS) == set(ids)

    stored = {t: await store.table(t) for t in ids}
    await asyncio.gather(batches(), seat_saves(), batches(), seat_saves(), renewals(), renewals())


async def test_a_match_that_ends_here_as_its_lease_is_renewed_is_not_lost(store: SqlStore) -> None:
    """The end of a match is stored before its host notes it; a renewal between the two skips the
    table (it renews unfinished tables only). That table ended here: it is let go without being
    "lost" (losing it cancelled the host's move mid-finish, and the match's last frames never went
    out). A table whose row names another process is lost."""
    lost: list[str] = []

    async def adopt(rows: Sequence[TableRow]) -> None: ...

    def lose(table_id: str) -> bool:
        lost.append(table_id)
        return True

    await store.renew("a", 60.0)
    for table_id in ("ends", "stays", "taken"):
        await store.save_table(table_row(table_id, status="playing", node="a"))
    keeper = LeaseKeeper(store, "a", adopt, lose)
    keeper.owned |= {"ends", "stays", "taken"}
    ended = await store.table("ends")
    assert ended is not None
    await store.finish(replace(ended, status=TableStatus.FINISHED), [], [])
    await store.release("a", ["taken"])
    await store.claim("b", 3.0, 10)
    await keeper._renew()
    assert lost == ["taken"]
    assert keeper.owned == {"stays"}


class MissingStore:
    """A store whose renewal answers nothing, and whose rows say the tables are still ``a``'s."""

    async def renew(self, node: str, seconds: float) -> set[str]:
        return set()

    async def table(self, table_id: str) -> TableRow:
        return table_row(table_id, status="playing", node="a")


async def test_a_table_a_renewal_skipped_but_still_held_here_is_kept() -> None:
    lost: list[str] = []

    async def adopt(rows: Sequence[TableRow]) -> None: ...

    def lose(table_id: str) -> bool:
        lost.append(table_id)
        return True

    keeper = LeaseKeeper(MissingStore(), "a", adopt, lose)  # type: ignore[arg-type]
    keeper.owned.add("t")
    await keeper._renew()
    assert lost == [] and keeper.owned == {"t"}  # (the next renewal renews it)


async def test_renewals_and_sweeps_leave_nothing_for_the_garbage_collector(store: SqlStore) -> None:
    """What a process runs several times a second to keep its lease makes no reference cycles: the
    server's collector (cardhall.server.collector) goes quiet only when nothing needs it."""
    await store.renew("a", 3.0)
    await store.save_table(table_row("t", status="playing", node="a"))
    for _ in range(3):  # (the first calls fill the caches: the compiled statements, the pool)
        await store.renew("a", 3.0)
        await store.expired(10)
    gc.collect()
    gc.disable()
    try:
        for _ in range(20):
            assert await store.renew("a", 3.0) == {"t"}
            assert await store.expired(10) == []
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0
