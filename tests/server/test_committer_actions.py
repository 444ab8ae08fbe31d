"""The group committer's actions (``Committer.commit``) when one table of a batch has moved to another
process (issue 47: a planted bug that told every table of the batch it was taken went unnoticed).

Two tables' actions are handed in together, so they go in one batch; one table's row holds a fence its
owner no longer has. The other table's actions must be stored, and only the moved table's owner must
get :class:`~cardhall.store.FencedError`. On SQLite (``cardhall.store.sql.sqlite_log``: the fences read in
the batch's transaction) and on PostgreSQL (the one asyncpg statement of
``cardhall.store.sql.postgres_log``), the two action logs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from cardhall.server.committer import Committer
from cardhall.store import ActionRow, FencedError, TableStatus, open_store
from tests.postgres import PostgresServer
from tests.server.test_committer_tables import waiting


def url_for(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.create_database()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_moved_table_in_a_batch_fails_alone_and_the_others_actions_are_stored(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = url_for(backend, request, tmp_path)

    async def scenario() -> tuple[list[object], dict[str, int], list[int]]:
        store = await open_store(url)
        batches: list[int] = []  # the tables in each call of append_actions (the batch, then retries)
        append = store.append_actions

        async def counted(actions: Sequence[ActionRow], fences: Mapping[str, int] | None = None) -> None:
            batches.append(len({a.table_id for a in actions}))
            await append(actions, fences)

        store.append_actions = counted  # type: ignore[method-assign]
        committer = Committer(store, spacing=0.05)  # (the two commits fall in one batch)
        try:
            await store.save_table(replace(waiting("kept"), status=TableStatus.PLAYING, fence=1))
            # Another process took "moved" over: its row's fence is 2, ours is still 1.
            await store.save_table(replace(waiting("moved"), status=TableStatus.PLAYING, fence=2))
            committer.start()
            outcomes = await asyncio.gather(
                committer.commit([ActionRow("kept", 1, 0, 3), ActionRow("kept", 2, 1, 4)], fence=1),
                committer.commit([ActionRow("moved", 1, 0, 3)], fence=1),
                return_exceptions=True,
            )
            counts = await store.action_counts(["kept", "moved"])
            return list(outcomes), counts, batches
        finally:
            await committer.stop()
            await store.close()

    outcomes, counts, batches = asyncio.run(scenario())
    assert batches[0] == 2, f"the two tables' actions were not in one batch: {batches}"
    assert outcomes[0] is None, f"the table that did not move was told {outcomes[0]!r}"
    assert isinstance(outcomes[1], FencedError), outcomes[1]
    assert counts.get("kept") == 2 and "moved" not in counts, counts
