"""The store's SQLite file as a file (:mod:`cardhall.store.sqlite_file`, issue 47): a write-ahead log that
readers and writers never leave alone is still emptied (tables of bots alone at pace 0 grew it to 389 MB
in 30 s), and a database file deleted or replaced under a running server stops every write and read at
once, says so in readiness and in the log, and lets nothing more be acknowledged."""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import replace
from pathlib import Path

import pytest

from cardhall.store import ActionRow, StoreUnavailableError, TableStatus, open_store, sqlite_file
from tests.server.test_committer_tables import waiting
from tests.server_helpers import new_player, new_table, server, session

LIMIT = 1024 * 1024  # the log's bound in these tests (the server's is 64 MiB)


def test_a_log_never_left_alone_is_emptied_at_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_file, "WAL_LIMIT_BYTES", LIMIT)
    path = tmp_path / "hall.db"
    wal = Path(f"{path}-wal")

    async def scenario() -> tuple[int, int, int]:
        store = await open_store(f"sqlite+aiosqlite:///{path}")
        ids = [f"t{k}" for k in range(30)]
        for t in ids:
            await store.save_table(replace(waiting(t), status=TableStatus.PLAYING))
        done = False
        peak = 0

        async def reader() -> None:  # (readers that never leave the log alone, as a busy server's)
            while not done:
                await store.action_counts(ids)

        readers = [asyncio.create_task(reader()) for _ in range(2)]
        number = 0
        for batch in range(400):
            number += 1
            await store.append_actions([ActionRow(t, number, 0, 5) for t in ids for _ in range(1)])
            if batch % 10 == 9:
                await store.checkpoint()
                peak = max(peak, wal.stat().st_size)
        done = True
        await asyncio.gather(*readers)
        counts = await store.action_counts(ids)
        await store.close()
        return peak, number, min(counts.values())

    peak, number, stored = asyncio.run(scenario())
    assert stored == number  # every action kept
    assert peak <= 2 * LIMIT, f"the log reached {peak / 1e6:.1f} MB"


def test_a_database_file_deleted_under_the_server_stops_it_storing_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "hall.db"
    with server(path) as client:
        token = new_player(client, "Ann")
        table = new_table(client, token, "hokm", bots={1: "normal", 2: "normal"})
        assert client.get("/healthz/ready").status_code == 200
        with session(client, token) as s:
            s.send(type="join", table=table)
            frame = s.wait(lambda f: f.get("table") == table and bool(f.get("legal")))
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            with caplog.at_level(logging.ERROR):
                s.send(type="act", table=table, action=frame["legal"][0]["label"], n=frame["n"], id="mv")
                answer = s.wait(lambda f: f.get("ref") == "mv" or f["type"] == "paused")
            assert answer["type"] == "paused" or answer.get("code") == "store_unavailable", answer
            ready = client.get("/healthz/ready")
        assert ready.status_code == 503, ready.text
        problems = ready.json()["problems"]
        assert any("was deleted or replaced" in p and str(path) in p for p in problems), problems
        told = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("was deleted or replaced" in m and "/proc/" in m for m in told), told
        # Nothing was acknowledged after the file went: no frame shows the move played.
        shown = [f["n"] for f in s.frames if f.get("table") == table and "n" in f]
        assert max(shown) == frame["n"], shown


def test_a_store_whose_file_was_replaced_refuses_reads_and_writes(tmp_path: Path) -> None:
    path = tmp_path / "hall.db"

    async def scenario() -> list[str]:
        store = await open_store(f"sqlite+aiosqlite:///{path}")
        await store.save_table(waiting("t"))
        os.replace(path, tmp_path / "moved.db")
        path.write_bytes(b"")  # (another file now has the name)
        refused = []
        for attempt in (store.table("t"), store.save_table(waiting("u"))):
            try:
                await attempt
            except StoreUnavailableError as e:
                refused.append(str(e))
        problems = store.problems()
        await store.close()
        return refused + problems

    said = asyncio.run(scenario())
    assert len(said) == 3 and all("was deleted or replaced" in s for s in said), said


def test_a_burst_of_reads_never_holds_a_write_behind_it(tmp_path: Path) -> None:
    """Readers take all but one of the pool's connections: with more reads open at once than the pool
    has connections (a burst of Play now arrivals), a write (a table's commit) still finds one at once,
    where it waited up to the pool's 30 s timeout behind the readers."""

    async def scenario() -> tuple[bool, int]:
        store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}")
        release = asyncio.Event()
        entered = 0

        async def read() -> None:
            nonlocal entered
            async with store._reading() as c:
                await c.exec_driver_sql("SELECT 1")
                entered += 1
                await release.wait()

        pool = store.engine.pool
        readers = [asyncio.create_task(read()) for _ in range(pool.size() + pool._max_overflow + 5)]  # type: ignore[attr-defined]
        await asyncio.sleep(0.5)  # (every reader that can get a connection has one)
        try:
            await asyncio.wait_for(store.save_table(waiting("t")), 5)
            stored = True
        except TimeoutError:
            stored = False
        held = entered
        release.set()
        await asyncio.gather(*readers)
        await store.close()
        return stored, held

    stored, held = asyncio.run(scenario())
    assert stored and held == 14  # (the pool's 5 and 10 more, less the writer's one)
