"""The action log on SQLite (:class:`SqliteActionLog`), written and read with the standard library's
``sqlite3``: a batch is ``BEGIN IMMEDIATE``, the fences read, an insert of many rows a statement and
``COMMIT``, in one hand-off to a thread and one wake-up of the event loop.

Through SQLAlchemy's asyncio Core and aiosqlite a batch of actions took a dozen hops between the event
loop and aiosqlite's thread (``BEGIN``, the insert, ``COMMIT``, the cursors' closes, the pool's
check-out and check-in), each a future, a wake-up of the loop and SQLAlchemy's per-statement work: a
sixth of the server's time under load, more than the writing itself (``benchmarks/load.md``). Here
SQLite does its work on a thread without the GIL.

- **Where it runs** (:class:`Connections`). An SQLite file: on connections of the log's own
  (:class:`OwnConnections`), one for the batches and one for the reads, each on a thread of its own, so
  that a long read (a takeover's, a replay's) never holds up a batch. A database in memory lives in one
  connection only, the store's (SQLAlchemy's ``StaticPool``): the same statements run there, in the
  store's transactions (:class:`SharedConnection`), as plain DB-API calls. Both are written against
  DB-API's ``cursor().execute()`` / ``fetchall()``, which the two connections share.
- **Fences.** With fences, the tables' rows are read in the batch's transaction: SQLite's write lock,
  taken by ``BEGIN IMMEDIATE`` before the read, keeps every other writer out until the commit, so a
  takeover (which raises a fence with an update) comes wholly before or wholly after the batch.
- **Turns.** The store's writers take turns on its write lock around a batch
  (:class:`~cardhall.store.sql.connection.SqlBase`), so the log's connection never waits on SQLite's
  busy handler for another writer of this process. Its connections get the store's pragmas
  (:func:`~cardhall.store.sql.dialect.sqlite_pragmas`).
- **Failures.** A batch that cannot be written is rolled back whole: a row the database refuses (a
  number already stored, a table that does not exist) raises SQLAlchemy's ``IntegrityError`` as every
  other part of the store does, any other failure (the lock held by another process past the timeout,
  a full disk, the file deleted: :mod:`cardhall.store.sqlite_file`, checked before each call and after
  each commit) :class:`~cardhall.store.errors.StoreUnavailableError`.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from sqlalchemy.exc import IntegrityError

from cardhall.store.action_log import ActionLog
from cardhall.store.errors import StoreUnavailableError, fenced
from cardhall.store.rows import ActionRow
from cardhall.store.sql.connection import SqlBase, held
from cardhall.store.sql.dialect import sqlite_pragmas
from cardhall.store.sqlite_file import SqliteFile

T = TypeVar("T")

INSERT = "INSERT INTO actions (table_id, number, seat, action, stand_in) VALUES "
COLUMNS = 5
# SQLite's oldest limit of parameters a statement.
PARAMETERS = 999
# Rows per statement: sqlite3 releases the GIL around every step of a statement and takes it back after,
# which waits for the event loop's thread to let go of it (up to the interpreter's switch interval,
# 5 ms) when the loop is busy; executemany steps once a row, so a batch of 30 rows could wait 30 times.
# One statement of many rows steps once.
ROWS_PER_STATEMENT = PARAMETERS // COLUMNS
FENCES = "SELECT id, fence FROM tables WHERE id IN ({})"
ACTIONS_OF = (
    "SELECT table_id, number, seat, action, stand_in FROM actions WHERE table_id IN ({}) "
    "ORDER BY table_id, number"
)
LAST = "SELECT number, seat, action, stand_in FROM actions WHERE table_id = ? ORDER BY number DESC LIMIT 1"
COUNTS = "SELECT table_id, max(number) FROM actions WHERE table_id IN ({}) GROUP BY table_id"


class Cursor(Protocol):
    def execute(self, sql: str, parameters: Sequence[Any], /) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class DbApiConnection(Protocol):
    def cursor(self) -> Any: ...


@functools.cache  # (a statement's text per number of rows, not joined again at every batch)
def _insert(rows: int) -> str:
    return INSERT + ", ".join(["(?, ?, ?, ?, ?)"] * rows)


@functools.cache
def _in(statement: str, count: int) -> str:
    return statement.format(", ".join(["?"] * count))


def _chunks(values: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [values[start : start + size] for start in range(0, len(values), size)]


def _append(values: list[Any], fences: Mapping[str, int] | None, connection: DbApiConnection) -> None:
    cursor: Cursor = connection.cursor()
    if fences:
        ids = sorted(fences)
        found: dict[str, int] = {}
        for chunk in _chunks(ids, PARAMETERS):
            cursor.execute(_in(FENCES, len(chunk)), chunk)
            found.update(cursor.fetchall())
        stale = [t for t in ids if found.get(t) != fences[t]]
        if stale:
            raise fenced(stale)
    for chunk in _chunks(values, COLUMNS * ROWS_PER_STATEMENT):
        cursor.execute(_insert(len(chunk) // COLUMNS), chunk)


def _actions_of(table_ids: Sequence[str], connection: DbApiConnection) -> dict[str, list[ActionRow]]:
    cursor: Cursor = connection.cursor()
    found: dict[str, list[ActionRow]] = {t: [] for t in table_ids}
    for chunk in _chunks(list(found), PARAMETERS):
        cursor.execute(_in(ACTIONS_OF, len(chunk)), chunk)
        for table_id, number, seat, action, stand_in in cursor.fetchall():
            found[table_id].append(ActionRow(table_id, number, seat, action, bool(stand_in)))
    return found


def _last(table_id: str, connection: DbApiConnection) -> ActionRow | None:
    cursor: Cursor = connection.cursor()
    cursor.execute(LAST, (table_id,))
    rows = cursor.fetchall()
    if not rows:
        return None
    number, seat, action, stand_in = rows[0]
    return ActionRow(table_id, number, seat, action, bool(stand_in))


def _counts(table_ids: Sequence[str], connection: DbApiConnection) -> dict[str, int]:
    cursor: Cursor = connection.cursor()
    counts: dict[str, int] = {}
    for chunk in _chunks(list(table_ids), PARAMETERS):
        cursor.execute(_in(COUNTS, len(chunk)), chunk)
        counts.update((t, int(n)) for t, n in cursor.fetchall())
    return counts


class Connections(ABC):
    """Where the log's statements run: ``work`` is given a DB-API connection inside a transaction
    (a write transaction when ``write``), committed when it returns."""

    @abstractmethod
    async def run(self, work: Callable[[DbApiConnection], T], *, write: bool) -> T: ...

    async def close(self) -> None:
        """Nothing of its own by default."""


class _Worker:
    """One ``sqlite3`` connection on one thread of its own (both made by the first call after a close,
    as SQLAlchemy's engine does after ``dispose``)."""

    def __init__(self, path: str, busy_timeout_ms: int, name: str) -> None:
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.name = name
        self.executor: ThreadPoolExecutor | None = None
        self.connection: sqlite3.Connection | None = None  # (opened, used and closed on that thread)
        self.traced: Callable[[str], None] | None = None

    async def call(self, work: Callable[[], T]) -> T:
        if self.executor is None:
            self.executor = ThreadPoolExecutor(1, thread_name_prefix=f"cardhall-sqlite-{self.name}")
        return await asyncio.get_running_loop().run_in_executor(self.executor, work)

    def open(self, trace: Callable[[str], None] | None) -> sqlite3.Connection:
        connection = self.connection
        if connection is None:
            connection = self.connection = sqlite3.connect(
                self.path,
                isolation_level=None,
                check_same_thread=False,
                cached_statements=2 * ROWS_PER_STATEMENT,
            )
            for pragma in sqlite_pragmas(self.busy_timeout_ms):
                connection.execute(f"PRAGMA {pragma}")
            self.traced = None
        if trace is not self.traced:
            connection.set_trace_callback(trace)
            self.traced = trace
        return connection

    def drop(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    async def close(self) -> None:
        executor, self.executor = self.executor, None
        if executor is None:
            return
        try:
            await asyncio.get_running_loop().run_in_executor(executor, self.drop)
        finally:
            executor.shutdown(wait=True)


class OwnConnections(Connections):
    """An SQLite file's log: a writer and a reader, each an ``sqlite3`` connection on a thread of its
    own; the store's write lock held around every write."""

    def __init__(
        self, path: str, busy_timeout_ms: int, file: SqliteFile | None, write_lock: asyncio.Lock | None
    ) -> None:
        self.file = file  # checked before each call and after each commit
        self.write_lock = write_lock
        self.writer = _Worker(path, busy_timeout_ms, "writer")
        self.reader = _Worker(path, busy_timeout_ms, "reader")
        # Called with each statement the writer runs, from the next batch on (tests read them).
        self.trace: Callable[[str], None] | None = None

    async def run(self, work: Callable[[DbApiConnection], T], *, write: bool) -> T:
        if not write:
            return await self.reader.call(functools.partial(self._transaction, self.reader, work, False))
        async with held(self.write_lock):
            return await self.writer.call(functools.partial(self._transaction, self.writer, work, True))

    def _transaction(self, worker: _Worker, work: Callable[[DbApiConnection], T], write: bool) -> T:
        connection = worker.open(self.trace if write else None)
        if self.file is not None:
            self.file.check()
        connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            result = work(connection)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                try:
                    connection.execute("ROLLBACK")
                except sqlite3.Error:  # (a connection that failed this way is opened again next time)
                    worker.drop()
            raise
        if write and self.file is not None:  # (committed into a file deleted meanwhile: not stored)
            self.file.check()
        return result

    async def close(self) -> None:
        await self.writer.close()
        await self.reader.close()


class SharedConnection(Connections):
    """A database in memory: the store's one connection, in the store's transactions."""

    def __init__(self, store: SqlBase) -> None:
        self.store = store

    async def run(self, work: Callable[[DbApiConnection], T], *, write: bool) -> T:
        transaction = self.store._writing() if write else self.store._reading()
        async with transaction as c:
            return await c.run_sync(lambda sync: work(sync.connection))


class SqliteActionLog(ActionLog):
    def __init__(self, connections: Connections, shown_url: str) -> None:
        self.connections = connections
        self.shown_url = shown_url
        self.batches = 0  # batches written (tests count them)

    async def _run(self, work: Callable[[DbApiConnection], T], *, write: bool) -> T:
        try:
            return await self.connections.run(work, write=write)
        except sqlite3.IntegrityError as e:
            raise IntegrityError(INSERT + "...", None, e) from e
        except (sqlite3.Error, OSError) as e:
            raise StoreUnavailableError(f"the store at {self.shown_url} failed: {e}") from e

    async def append_actions(
        self, actions: Sequence[ActionRow], fences: Mapping[str, int] | None = None
    ) -> None:
        if not actions:
            return
        values = [value for a in actions for value in (a.table_id, a.number, a.seat, a.action, a.stand_in)]
        self.batches += 1
        await self._run(functools.partial(_append, values, fences), write=True)

    async def actions_of(self, table_ids: Sequence[str]) -> dict[str, list[ActionRow]]:
        if not table_ids:
            return {}
        return await self._run(functools.partial(_actions_of, table_ids), write=False)

    async def last_action(self, table_id: str) -> ActionRow | None:
        return await self._run(functools.partial(_last, table_id), write=False)

    async def action_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        if not table_ids:
            return {}
        return await self._run(functools.partial(_counts, table_ids), write=False)

    async def close(self) -> None:
        await self.connections.close()
