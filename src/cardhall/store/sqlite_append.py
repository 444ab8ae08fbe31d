"""The group commit's actions on an SQLite file, written by the standard library's ``sqlite3`` on a
thread and a connection of their own: one hand-off to that thread and one wake-up of the event loop
per batch.

Through SQLAlchemy's asyncio Core and aiosqlite a batch of actions took a dozen hops between the event
loop and aiosqlite's thread (``BEGIN``, the insert, ``COMMIT``, the cursors' closes, the pool's
check-out and check-in), each a future, a wake-up of the loop and SQLAlchemy's per-statement work
(the compiled cache's key, the execution context): a sixth of the server's time under load, more than
the writing itself. Here the thread does ``BEGIN IMMEDIATE``, an insert of many rows a statement and
``COMMIT`` in one call, and SQLite does its work without the GIL.

The connection gets the store's pragmas (WAL, ``synchronous=NORMAL``, no automatic checkpoint, the
same busy timeout, foreign keys); the store's writers still take turns on its write lock around it
(:class:`~cardhall.store.sql.SqlStore`), so this connection never waits on SQLite's busy handler for
another writer of this process. A batch that cannot be written is rolled back whole: a row the
database refuses (a number already stored, a table that does not exist) raises SQLAlchemy's
``IntegrityError`` as the SQLAlchemy path does, any other failure (the lock held by another process
past the timeout, a full disk) :class:`~cardhall.store.base.StoreUnavailableError`.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy.exc import IntegrityError

from cardhall.store.base import StoreUnavailableError
from cardhall.store.rows import ActionRow
from cardhall.store.sqlite_file import SqliteFile

INSERT = "INSERT INTO actions (table_id, number, seat, action, stand_in) VALUES "
COLUMNS = 5
# Rows per statement: sqlite3 releases the GIL around every step of a statement and takes it back after,
# which waits for the event loop's thread to let go of it (up to the interpreter's switch interval,
# 5 ms) when the loop is busy; executemany steps once a row, so a batch of 30 rows could wait 30 times.
# One statement of many rows steps once. 199 rows of 5 parameters stay under SQLite's oldest limit of
# 999 parameters a statement.
ROWS_PER_STATEMENT = 999 // COLUMNS


def sqlite_pragmas(busy_timeout_ms: int) -> tuple[str, ...]:
    """What every connection to the store's SQLite file is set to (SQLAlchemy's and this one's)."""
    return (
        "journal_mode=WAL",
        "synchronous=NORMAL",
        "wal_autocheckpoint=0",
        # (a log emptied by a checkpoint gives its space back beyond this: cardhall.store.sqlite_file)
        "journal_size_limit=16777216",
        f"busy_timeout={busy_timeout_ms}",
        "foreign_keys=ON",
    )


@functools.cache  # (a statement's text per number of rows, not joined again at every batch)
def _insert(rows: int) -> str:
    return INSERT + ", ".join(["(?, ?, ?, ?, ?)"] * rows)


class SqliteAppender:
    def __init__(
        self, path: str, busy_timeout_ms: int, shown_url: str, file: SqliteFile | None = None
    ) -> None:
        self.path = path
        self.file = file  # checked before each batch and after its commit (cardhall.store.sqlite_file)
        self.busy_timeout_ms = busy_timeout_ms
        self.shown_url = shown_url
        self._executor: ThreadPoolExecutor | None = None  # (started by the first batch after a close)
        self._connection: sqlite3.Connection | None = None  # (opened, used and closed on that thread)
        # Called with each statement the connection runs, from the next batch on (tests count them).
        self.trace: Callable[[str], None] | None = None
        self._traced: Callable[[str], None] | None = None

    async def append(self, actions: Sequence[ActionRow]) -> None:
        values = [value for a in actions for value in (a.table_id, a.number, a.seat, a.action, a.stand_in)]
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="cardhall-sqlite-appender")
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, self._append, values)
        except sqlite3.IntegrityError as e:
            raise IntegrityError(INSERT + "...", None, e) from e
        except (sqlite3.Error, OSError) as e:
            raise StoreUnavailableError(f"the store at {self.shown_url} failed: {e}") from e

    async def close(self) -> None:
        """Close the connection and end the thread (a later batch opens them again, as SQLAlchemy's
        engine does after ``dispose``)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        try:
            await asyncio.get_running_loop().run_in_executor(executor, self._close)
        finally:
            executor.shutdown(wait=True)

    def _open(self) -> sqlite3.Connection:
        connection = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, cached_statements=2 * ROWS_PER_STATEMENT
        )
        for pragma in sqlite_pragmas(self.busy_timeout_ms):
            connection.execute(f"PRAGMA {pragma}")
        return connection

    def _append(self, values: list[str | int | bool]) -> None:
        connection = self._connection
        if connection is None:
            connection = self._connection = self._open()
            self._traced = None
        if self.trace is not self._traced:
            connection.set_trace_callback(self.trace)
            self._traced = self.trace
        if self.file is not None:
            self.file.check()
        connection.execute("BEGIN IMMEDIATE")
        try:
            step = COLUMNS * ROWS_PER_STATEMENT
            for start in range(0, len(values), step):
                chunk = values[start : start + step]
                connection.execute(_insert(len(chunk) // COLUMNS), chunk)
            connection.execute("COMMIT")
            if self.file is not None:  # (committed into a file deleted meanwhile: not stored at all)
                self.file.check()
        except BaseException:
            if connection.in_transaction:
                try:
                    connection.execute("ROLLBACK")
                except sqlite3.Error:  # (a connection that failed this way is opened again next time)
                    connection.close()
                    self._connection = None
            raise

    def _close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
