"""A store that fails under running matches never corrupts one: the server (its context, lobby and
tables, in this process) plays matches of every game while its store is made to fail, in four ways
(a second connection holding SQLite's write lock past the busy timeout; a file system that is full, on
a small tmpfs where the machine lets us mount one; a failing store planted in front of SQLite and of
PostgreSQL; PostgreSQL stopped and started again). Every time: each table pauses, what it holds in
memory is exactly what the store holds and no frame showed more, a move meanwhile is refused and
changes nothing, the tables go on when the store is back, the server is restarted, and every match is
played to its end and its record replays.

Also here: a restore never stops the server (a table that cannot come back is marked broken), a
failed group-commit batch fails no table silently, a commit cut off after it landed is not written
twice, and the HTTP API and the websocket answer ``store_unavailable`` rather than a 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from starlette.testclient import TestClient

import cardhall
from cardhall.server.app import create_app
from cardhall.server.committer import Committer
from cardhall.server.context import ServerContext
from cardhall.server.protocol import ProtocolError
from cardhall.store import ActionRow, PlayerRow, SeatRow, Store, StoreUnavailableError, TableRow, open_store
from cardhall.store.sql import SqlStore
from cardhall.table import Table
from tests.postgres import PostgresServer, postgres_bin, postgres_server
from tests.server_helpers import Watcher, auth, new_player, session

pytestmark = pytest.mark.anyio

# Short matches of every game; seat 0 holds a person who never connects, so his stand-in plays at once
# (away_seconds 0) and every table plays itself through the store.
GAMES = (
    "hokm",
    "svara(players=3,max_deals=60)",
    "gin(players=2)",
    "hearts(decks=1,players=4)",
    "kierki",
)
SETTINGS = {"bot_pace_ms": 0, "away_seconds": 0, "turn_seconds": 0}
CEILING = 120.0  # seconds any wait here may take at most on a loaded machine (never a timing check)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class FaultyStore:
    """A store in front of a real one whose writes fail while ``failing`` is set (as a full disk makes
    them; reads go on), or, with ``cut_off``, land and then fail (a commit whose answer was lost)."""

    WRITES = frozenset(
        {
            *("append_actions", "save_table", "save_tables", "finish", "add_chat"),
            *("create_player", "probe", "mark_broken"),
        }
    )

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.failing = False
        self.cut_off = 0  # this many writes land and then raise
        self.refused = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name not in self.WRITES:
            return attr

        async def write(*args: Any, **kwargs: Any) -> Any:
            if self.failing:
                self.refused += 1
                raise StoreUnavailableError("the store at test failed: [Errno 28] No space left (planted)")
            result = await attr(*args, **kwargs)
            if self.cut_off:
                self.cut_off -= 1
                raise StoreUnavailableError("the store at test failed: connection lost at commit (planted)")
            return result

        return write


async def until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + CEILING
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {CEILING:g} s for {what}")
        await asyncio.sleep(0.01)


async def until_async(check: Callable[[], Awaitable[bool]], what: str) -> None:
    deadline = time.monotonic() + CEILING
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {CEILING:g} s for {what}")
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def running(store: Any) -> AsyncIterator[ServerContext]:
    ctx = ServerContext(cast(Store, store))
    await ctx.start()
    try:
        yield ctx
    finally:
        await ctx.stop()


class Hall:
    """The matches of one test: a table of each game, a watcher at each, and one table where a person
    plays for himself (Ann, at hokm)."""

    def __init__(self, ctx: ServerContext) -> None:
        self.ctx = ctx
        self.watchers: dict[str, Watcher] = {}
        self.ann: PlayerRow | None = None
        self.ann_table = ""
        self.ann_seat: Watcher | None = None

    async def open(self, reader: Store) -> None:
        for game in GAMES:
            player, _ = await reader.create_player("Stand-in")
            host = await self.ctx.lobby.quick_play(player, game, "normal", SETTINGS)
            watcher = Watcher(player)
            await host.call(lambda h=host, w=watcher: h.watch(w, 0))  # type: ignore[misc]
            self.watchers[host.id] = watcher
        self.ann, _ = await reader.create_player("Ann")
        host = await self.ctx.lobby.quick_play(self.ann, "hokm", "normal", {**SETTINGS, "away_seconds": 600})
        self.ann_table = host.id
        self.ann_seat = Watcher(self.ann)
        await host.call(lambda: host.join(self.ann_seat, 0, 0, None))  # type: ignore[arg-type]

    def hosts(self) -> list[Any]:
        return [h for h in self.ctx.lobby.hosts.values() if h.table is not None]

    async def ann_plays(self) -> None:
        """Ann plays her first legal action if it is her turn."""
        host = self.ctx.lobby.hosts.get(self.ann_table)
        if host is None or host.table is None or host.row.status != "playing":
            return
        table = host.table
        if 0 in table.to_act and 0 in table.waiting_for():
            number = table.number
            action = table.legal_actions(0)[0]
            with contextlib.suppress(ProtocolError):
                await host.call(lambda: host.act(self.ann_seat, action, number, None))

    async def play_some(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await self.ann_plays()
            await asyncio.sleep(0.01)

    async def settle(self, what: str) -> None:
        """Ann plays on until every table is paused or finished."""
        deadline = time.monotonic() + CEILING
        while not all(h.paused is not None or h.row.status != "playing" for h in self.hosts()):
            assert time.monotonic() < deadline, f"waited {CEILING:g} s for {what}"
            await self.ann_plays()
            await asyncio.sleep(0.01)

    async def play_to_the_end(self) -> None:
        deadline = time.monotonic() + CEILING
        while any(h.row.status == "playing" for h in self.hosts()):
            assert time.monotonic() < deadline, "the matches did not end"
            await self.ann_plays()
            await asyncio.sleep(0.01)


Snapshot = dict[str, list[tuple[int, int]]]


def snapshot(ctx: ServerContext, watchers: list[Watcher]) -> Snapshot:
    """What each table holds in memory (its actions); no frame sent to anyone showed an event past
    them, and each holds them as stored (its count of stored actions)."""
    held: Snapshot = {}
    for host in ctx.lobby.hosts.values():
        if host.table is None:
            continue
        held[host.id] = list(host.table.state.history)
        assert host.stored == len(held[host.id]), f"table {host.id}: counts more stored than it holds"
        shown = [f["n"] for w in watchers for f in w.frames if f.get("table") == host.id and "n" in f]
        assert max(shown, default=0) <= host.table.number, f"table {host.id}: a frame showed more"
    return held


async def assert_stored(reader: Store, held: Snapshot) -> None:
    for table_id, actions in held.items():
        assert await reader.actions(table_id) == actions, f"table {table_id}: memory and store differ"


async def assert_every_match_ends_and_replays(reader: Store, ids: list[str]) -> None:
    for table_id in ids:
        row = await reader.table(table_id)
        assert row is not None and row.status == "finished", (table_id, row and row.status)
        record = await reader.record(table_id)
        assert record is not None
        state = cardhall.replay(record)
        assert state.is_over
        assert isinstance(reader, SqlStore)
        assert [r.score for r in await reader.results(table_id)] == list(state.scores)


async def outage_then_restart(
    reader: Store,
    store: Any,
    fail: Callable[[], Awaitable[None]],
    heal: Callable[[], Awaitable[None]],
    readable: bool = True,
) -> None:
    """The scenario every fault runs. Matches are under way when the store fails (``fail``): every
    table pauses and holds what is stored (compared at once when the failing store can still be read,
    ``readable``), Ann's move is refused and changes nothing, nothing moves. The store comes back
    (``heal``) and the tables go on. It fails again and the server stops meanwhile; once it is back,
    the store holds what the tables held. The server starts again on it, and every match is played
    to its end and replays."""
    async with running(store) as ctx:
        hall = Hall(ctx)
        await hall.open(reader)
        ids = [h.id for h in hall.hosts()]
        watchers = [*hall.watchers.values(), cast(Watcher, hall.ann_seat)]
        await hall.play_some(0.05)

        await fail()
        await hall.settle("every table to pause")
        paused = [h for h in hall.hosts() if h.paused is not None]
        assert paused, "no table was still playing when the store failed"
        held = snapshot(ctx, watchers)
        if readable:
            await assert_stored(reader, held)
        for host in paused:
            watcher = hall.watchers.get(host.id) or hall.ann_seat
            assert watcher is not None and "paused" in watcher.kinds()

        ann = ctx.lobby.hosts[hall.ann_table]
        if ann.paused is not None and ann.table is not None and 0 in ann.table.waiting_for():
            before = (ann.table.number, list(ann.table.state.history))
            action, number = ann.table.legal_actions(0)[0], ann.table.number
            with pytest.raises(ProtocolError) as refused:
                await ann.call(lambda: ann.act(hall.ann_seat, action, number, None))
            assert refused.value.code == "store_unavailable"
            assert (ann.table.number, ann.table.state.history) == before
        await hall.play_some(0.3)
        assert snapshot(ctx, watchers) == held  # nothing moved meanwhile

        await heal()
        # (a table paused at its match's end is no longer paused while it stores that end, and says
        # ``resumed`` once it did: it has gone on when both are done)
        await until(
            lambda: all(h.paused is None and not h.finish_due for h in hall.hosts()), "every table to go on"
        )
        for host in paused:
            watcher = hall.watchers.get(host.id) or hall.ann_seat
            assert watcher is not None and "resumed" in watcher.kinds()
        await hall.play_some(0.1)

        await fail()
        await hall.settle("every table to pause again")
        held = snapshot(ctx, watchers)
        unfinished = {h.id for h in hall.hosts() if h.row.status == "playing"}
    # The server stopped with its tables paused (its owner tasks cancelled wherever they were).
    await heal()
    await assert_stored(reader, held)
    async with running(store) as ctx:
        restored = snapshot(ctx, [])  # (before any table moves: nothing awaited since the start)
        assert restored == {table_id: held[table_id] for table_id in unfinished}
        again = Hall(ctx)
        again.ann, again.ann_table = hall.ann, hall.ann_table
        host = ctx.lobby.hosts.get(again.ann_table)
        if host is not None:  # Ann comes back to her seat
            again.ann_seat = Watcher(again.ann)
            await host.call(lambda: host.join(again.ann_seat, 0, 0, None))  # type: ignore[arg-type]
        await again.play_to_the_end()
    await assert_every_match_ends_and_replays(reader, ids)


# --- the four faults -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_planted_failing_store_pauses_every_table_and_loses_nothing(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    else:
        url = cast(PostgresServer, request.getfixturevalue("postgres")).create_database()
    inner = await open_store(url)
    store = FaultyStore(inner)

    async def fail() -> None:
        store.failing = True

    async def heal() -> None:
        store.failing = False

    try:
        await outage_then_restart(inner, store, fail, heal)
        assert store.refused > 0
    finally:
        await inner.close()


@pytest.mark.slow
async def test_another_process_holding_sqlites_write_lock_past_the_timeout_pauses_and_loses_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "hall.db"
    url = f"sqlite+aiosqlite:///{db}"
    store = await open_store(url, busy_timeout_ms=50)
    holder = sqlite3.connect(db, isolation_level=None, timeout=60, check_same_thread=False)

    async def fail() -> None:
        # The write lock, held until heal(); taken in a thread (it waits for the server's writes).
        await asyncio.to_thread(holder.execute, "BEGIN IMMEDIATE")

    async def heal() -> None:
        holder.execute("ROLLBACK")

    try:
        await outage_then_restart(store, store, fail, heal)
    finally:
        holder.close()
        await store.close()


@contextlib.contextmanager
def small_tmpfs(path: Path, size: str) -> Iterator[Path]:
    path.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"this machine does not let us mount a tmpfs ({done.stderr.strip()})")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(path: Path) -> Path:
    """Fill the file system of ``path`` to the last byte (unbuffered: nothing left to fail at close);
    the filler file."""
    filler = path / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for size in (1 << 20, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    return filler


@pytest.mark.slow
async def test_a_full_file_system_pauses_every_table_and_loses_nothing(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk", "64m") as disk:
        store = await open_store(f"sqlite+aiosqlite:///{disk / 'hall.db'}")
        filler: list[Path] = []

        async def fail() -> None:
            filler.append(fill(disk))

        async def heal() -> None:
            filler.pop().unlink()

        try:
            await outage_then_restart(store, store, fail, heal, readable=True)
        finally:
            await store.close()


@pytest.mark.postgres
@pytest.mark.slow
async def test_postgresql_stopped_and_started_again_pauses_every_table_and_loses_nothing() -> None:
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed")
    with postgres_server() as pg:
        store = await open_store(pg.create_database())

        async def fail() -> None:
            await asyncio.to_thread(pg.halt)

        async def heal() -> None:
            await asyncio.to_thread(pg.resume)

        try:
            await outage_then_restart(store, store, fail, heal, readable=False)
        finally:
            await store.close()


# --- a restore never stops the server ------------------------------------------------------------


def stored_match(table_id: str, game: str, actions: int, seed: int = 5) -> tuple[TableRow, list[ActionRow]]:
    """A playing table whose person's stand-in and two bots have played ``actions`` actions."""
    table = Table(game, ["rules"] * 3, seed=seed)
    for _ in range(actions):
        table.play_bot(table.bots_to_act()[0])
    row = TableRow(
        id=table_id,
        game=game,
        rules_version=table.game.rules_version,
        seed=seed,
        settings={"turn_seconds": 0, "away_seconds": 0, "bot_pace_ms": 0, "stand_in": "rules"},
        seats=[
            SeatRow(0, "bot", "rules", None, "rules"),
            SeatRow(1, "bot", "rules", None, "rules"),
            SeatRow(2, "bot", "rules", None, "rules"),
        ],
        status="playing",
    )
    history = [ActionRow(table_id, n, s, a) for n, (s, a) in enumerate(table.state.history, 1)]
    return row, history


async def test_tables_that_cannot_come_back_are_marked_broken_and_the_others_are_served(
    tmp_path: Path,
) -> None:
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}")
    assert isinstance(store, SqlStore)
    try:
        rows = {}
        for name in ("good", "illegal", "gap", "old_rules", "unreadable"):
            row, actions = stored_match(name, "hokm", 12)
            if name == "illegal":  # its 6th action replaced by one that is not legal then
                actions[5] = ActionRow(name, 6, actions[5].seat, 99)
            elif name == "gap":
                actions = actions[:4] + actions[5:]
            elif name == "old_rules":
                row.rules_version = "0"
            await store.save_table(row)
            await store.append_actions(actions)
            rows[name] = actions
        async with store.engine.begin() as c:
            await c.execute(sa.text("UPDATE tables SET seats = '[{\"chair\": 1}]' WHERE id = 'unreadable'"))

        async with running(store) as ctx:
            assert list(ctx.lobby.hosts) == ["good"]
            good = ctx.lobby.hosts["good"]
            assert good.table is not None
            history = good.table.state.history  # (the good one plays on meanwhile)
            assert history[:12] == [(a.seat, a.action) for a in rows["good"]]
            await until(lambda: good.row.status == "finished", "the good match to end")
        for name, reason in (
            ("illegal", "do not replay"),
            ("gap", "go from number 4 to 6"),
            ("old_rules", "rules version '0'"),
            ("unreadable", "cannot be read"),
        ):
            async with store.engine.connect() as c:
                status, problem = (
                    await c.execute(sa.text(f"SELECT status, problem FROM tables WHERE id = '{name}'"))
                ).one()
            assert status == "broken", name
            assert reason in problem, (name, problem)
        assert (await store.table("good")).status == "finished"  # type: ignore[union-attr]
    finally:
        await store.close()


# --- the group commit and a commit cut off -------------------------------------------------------


async def test_a_batch_refused_for_one_tables_rows_fails_that_table_alone(tmp_path: Path) -> None:
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}")
    committer = Committer(store)
    committer.start()
    try:
        for name in ("a", "b", "c"):
            row, _ = stored_match(name, "hokm", 0)
            await store.save_table(row)
        await store.append_actions([ActionRow("b", 1, 0, 1)])
        outcomes = await asyncio.gather(
            committer.commit([ActionRow("a", 1, 0, 5)]),
            committer.commit([ActionRow("b", 1, 0, 6)]),  # number 1 of b is stored already
            committer.commit([ActionRow("c", 1, 0, 7)]),
            return_exceptions=True,
        )
        assert outcomes[0] is None and outcomes[2] is None
        assert isinstance(outcomes[1], IntegrityError)
        assert await store.actions("a") == [(0, 5)] and await store.actions("c") == [(0, 7)]
        assert await store.actions("b") == [(0, 1)]
    finally:
        await committer.stop()
        await store.close()


async def test_a_commit_cut_off_after_it_landed_is_not_written_twice_nor_undone(tmp_path: Path) -> None:
    inner = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}")
    store = FaultyStore(inner)
    try:
        async with running(store) as ctx:
            ann, _ = await inner.create_player("Ann")
            host = await ctx.lobby.quick_play(ann, "hokm", "normal", {**SETTINGS, "away_seconds": 600})
            seat = Watcher(ann)
            await host.call(lambda: host.join(seat, 0, 0, None))  # type: ignore[arg-type]
            await until(lambda: host.table is not None and 0 in host.table.waiting_for(), "Ann's turn")
            assert host.table is not None
            store.cut_off = 1
            number, action = host.table.number, host.table.legal_actions(0)[0]
            await host.call(lambda: host.act(seat, action, number, None))  # type: ignore[arg-type]
            assert host.paused is None
            # (The bots play on at once: the store may hold moves whose commit the table still awaits.)
            counted = host.stored
            stored = await inner.actions(host.id)
            assert len(stored) >= counted and host.table.state.history[: len(stored)] == stored
            assert (0, action) in stored
    finally:
        await inner.close()


# --- the HTTP API and the websocket --------------------------------------------------------------


def test_http_and_websocket_answer_store_unavailable_not_500(tmp_path: Path) -> None:
    faulty: list[FaultyStore] = []

    async def opener(url: str) -> Store:
        faulty.append(FaultyStore(await open_store(url)))
        return cast(Store, faulty[0])

    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", store_opener=opener)
    with TestClient(app) as client:
        token = new_player(client)
        faulty[0].failing = True
        response = client.post("/api/players", json={"name": "Bob"})
        assert response.status_code == 503 and response.json()["error"] == "store_unavailable"
        assert response.headers["retry-after"] == "5"
        response = client.post("/api/quickplay", json={"game": "hokm"}, headers=auth(token))
        assert response.status_code == 503 and response.json()["error"] == "store_unavailable"
        assert client.get("/api/tables").json() == {"open": [], "running": []}  # nothing half made
        faulty[0].failing = False
        response = client.post(
            "/api/quickplay", json={"game": "hokm", "settings": {"bot_pace_ms": 0}}, headers=auth(token)
        )
        table = response.json()["table"]
        with session(client, token) as s:
            s.send(type="join", table=table)
            s.until("table")
            faulty[0].failing = True
            s.send(type="chat", table=table, text="hello", id=7)
            frame = s.until("error")
            assert frame["code"] == "store_unavailable" and frame["ref"] == 7
            faulty[0].failing = False
            s.send(type="chat", table=table, text="hello again")
            assert s.until("chat")["text"] == "hello again"
