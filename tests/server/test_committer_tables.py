"""The group committer's seat changes (``Committer.save``): the rows handed in together are saved in one
transaction, and a row the store refuses (its table moved to another process) fails its own table
alone."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from cardhall.server.committer import Committer
from cardhall.store import FencedError, SeatKind, SeatRow, TableRow, TableStatus, open_store
from cardhall.store.sql import SqlStore


def waiting(table_id: str) -> TableRow:
    return TableRow(
        id=table_id,
        game="hokm",
        rules_version="1",
        seed=5,
        settings={"turn_seconds": 0, "away_seconds": 0, "bot_pace_ms": 0, "stand_in": "rules"},
        seats=[SeatRow(0), SeatRow(1, SeatKind.BOT, "rules", None, "rules"), SeatRow(2)],
        status=TableStatus.WAITING,
    )


class Counting(SqlStore):
    """The SQLite store, counting the batches of table rows it is asked to save."""

    batches: list[int]

    async def save_tables(
        self, tables: Sequence[TableRow], invitations: Mapping[str, str] | None = None
    ) -> None:
        self.batches.append(len(tables))
        await super().save_tables(tables, invitations)


async def counting_store(path: Path) -> Counting:
    store = await open_store(f"sqlite+aiosqlite:///{path}")
    assert isinstance(store, SqlStore)
    store.__class__ = Counting  # (opened by open_store: its migrations, its engine)
    counting = store
    assert isinstance(counting, Counting)
    counting.batches = []
    return counting


def test_seat_changes_handed_in_together_are_saved_in_one_transaction(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[int], list[TableStatus | None]]:
        store = await counting_store(tmp_path / "hall.db")
        committer = Committer(store)
        committer.start()
        try:
            rows = [waiting(f"t{k}") for k in range(50)]
            await asyncio.gather(*(committer.save(row) for row in rows))
            found = [await store.table(row.id) for row in rows]
            return store.batches, [None if f is None else f.status for f in found]
        finally:
            await committer.stop()
            await store.close()

    batches, statuses = asyncio.run(scenario())
    assert statuses == [TableStatus.WAITING] * 50
    assert batches == [50]  # one transaction (one at a time, this would be 50 batches of 1)


def test_a_table_whose_fence_moved_on_fails_alone_and_the_others_are_saved(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[object], list[TableStatus | None]]:
        store = await counting_store(tmp_path / "hall.db")
        committer = Committer(store)
        committer.start()
        try:
            for name in ("a", "b", "c"):
                await store.save_table(waiting(name))
            # b's row holds fence 1; a writer with fence 2 is not its owner: refused.
            changed = [
                replace(waiting("a"), status=TableStatus.PLAYING),
                replace(waiting("b"), status=TableStatus.PLAYING, fence=2),
                replace(waiting("c"), status=TableStatus.PLAYING),
            ]
            outcomes = await asyncio.gather(*(committer.save(r) for r in changed), return_exceptions=True)
            found = [await store.table(name) for name in ("a", "b", "c")]
            return outcomes, [None if f is None else f.status for f in found]
        finally:
            await committer.stop()
            await store.close()

    outcomes, statuses = asyncio.run(scenario())
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], FencedError)
    assert statuses == [TableStatus.PLAYING, TableStatus.WAITING, TableStatus.PLAYING]
