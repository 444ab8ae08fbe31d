"""A message about a table that is between owners (issue 47): its owner's lease ran out and nobody holds
it yet, or this process has just taken it and is still restoring it. It used to be answered
``no_such_table``, which the page takes for a table gone for good; it is ``table_moved`` (try again:
a join or watch is carried out by itself once the table is back), except for a private table to those it
would not let in, for whom it stays ``no_such_table`` word for word.

The process's side alone (:meth:`Cluster.forwarded`), on an SQLite store with leases, no bus: the real
processes' test is ``tests/server/cluster/test_cluster.py``, where the window is too short to hit at will."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from cardhall.server.cluster.node import Cluster
from cardhall.server.context import ServerContext
from cardhall.server.protocol import Join, ProtocolError, Watch
from cardhall.store import PlayerRow, TableStatus, open_store
from tests.server.test_committer_tables import waiting


@dataclass
class Edge:
    """A connection as the cluster sees it: an id and its player."""

    id: str
    player: PlayerRow


async def answer(cluster: Cluster, conn: Edge, message: Any) -> str:
    """What ``forwarded`` does with ``message``: its refusal's code, or ``here`` (handled here)."""
    try:
        forwarded = await cluster.forwarded(conn, message)  # type: ignore[arg-type]
    except ProtocolError as e:
        return e.code
    return "forwarded" if forwarded else "here"


@pytest.mark.parametrize("private", [False, True])
def test_a_table_between_owners_is_moving_not_gone(tmp_path: Path, private: bool) -> None:
    async def scenario() -> dict[str, str]:
        store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}")
        ctx = ServerContext(store)
        cluster = Cluster(ctx, "n1", bus=None, directory=None)  # type: ignore[arg-type]
        ann = PlayerRow(1, "Ann")
        seats = [replace(s, player_id=ann.id) if s.seat == 0 else s for s in waiting("t").seats]
        row = replace(waiting("t"), status=TableStatus.PLAYING, seats=seats)
        await store.save_table(row, "the-invitation" if private else None)
        out = {}
        # Nobody holds it: its owner's lease ran out (here: it never had one).
        out["nobody, seated"] = await answer(cluster, Edge("c1", ann), Join(table="t"))
        out["nobody, stranger"] = await answer(cluster, Edge("c2", PlayerRow(2, "Eve")), Watch(table="t"))
        out["nobody, invited"] = await answer(
            cluster, Edge("c3", PlayerRow(3, "Bob")), Watch(table="t", invitation="the-invitation")
        )
        # Taken by this process, not restored yet (not in its lobby).
        assert [r.id for r in await store.claim("n1", 30.0, 10)] == ["t"]
        out["restoring, seated"] = await answer(cluster, Edge("c4", ann), Join(table="t"))
        out["no such table"] = await answer(cluster, Edge("c5", ann), Join(table="nope"))
        await store.close()
        return out

    out = asyncio.run(scenario())
    assert out["nobody, seated"] == out["restoring, seated"] == "table_moved", out
    assert out["nobody, invited"] == "table_moved", out
    # A stranger without the invitation learns nothing of a private table; the rest is handled here
    # (where an unknown table is no_such_table, as on one process).
    assert out["nobody, stranger"] == ("here" if private else "table_moved"), out
    assert out["no such table"] == "here", out
