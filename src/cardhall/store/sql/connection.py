"""What every SQL part of the store stands on (:class:`SqlBase`): the engine, its dialect, the SQLite file
checked at every use, the transactions every method reads and writes in, and what the store does as a
whole (close, checkpoint, problems).

- **Transactions.** :meth:`SqlBase._writing` is a transaction committed on leaving (rolled back on an
  exception), :meth:`SqlBase._reading` a connection whose reads see one snapshot. A store that fails
  raises :class:`~cardhall.store.errors.StoreUnavailableError` from either; an ``IntegrityError`` is a
  defect of the caller's rows, not of the store, and goes through as it is.
- **Turns.** On SQLite the writers of one store take turns on an ``asyncio.Lock`` (SQLite has one
  writer; waiting here costs nothing, waiting on its busy handler polls); ``sqlite+aiosqlite:///:memory:``
  is one connection (``StaticPool``) shared for the store's life, every use taking that lock.
- **A connection kept for the writer** (SQLite file): readers take at most all but one of the
  engine's pooled connections (:meth:`SqlBase._reading` waits on a semaphore for the rest), so the
  one writer, who holds the turn while he checks a connection out, never queues behind readers for
  it. A burst of reads (Play now's arrivals at 100 a second: a ``hello`` and a ``seek`` each) filled
  the pool's 15 and held every commit behind them, the tables' actions too, for up to the pool's
  30 s timeout (``store_unavailable``; benchmarks/matching.md).
- **Checkpoints** (SQLite file): the server asks now and then, off the path of any commit; see
  :mod:`cardhall.store.sqlite_file` for the log kept small and the file deleted under the server.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardhall.store import sqlite_file
from cardhall.store.action_log import ActionLog
from cardhall.store.errors import StoreUnavailableError
from cardhall.store.sql.dialect import DIALECTS, Dialect
from cardhall.store.sqlite_file import SqliteFile

# What a store that fails raises (as StoreUnavailableError).
FAILURES = (SQLAlchemyError, OSError, TimeoutError)


def shown_url(url: str) -> str:
    """``url`` with its password hidden (``***``), parsed or not."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def reason(error: BaseException) -> str:
    """What went wrong, in the driver's words when it has some."""
    if isinstance(error, DBAPIError) and error.orig is not None:
        error = error.orig
    return str(error).strip() or type(error).__name__


def held(lock: asyncio.Lock | asyncio.Semaphore | None) -> AbstractAsyncContextManager[object]:
    return nullcontext() if lock is None else lock


def reader_slots(engine: AsyncEngine) -> asyncio.Semaphore | None:
    """How many of ``engine``'s pooled connections readers may hold at once: all but one (None: a pool
    without a bound, or of one connection)."""
    pool = engine.pool
    size = getattr(pool, "size", None)
    overflow = getattr(pool, "_max_overflow", None)
    if not callable(size) or not isinstance(overflow, int) or overflow < 0:
        return None
    connections = int(size()) + overflow
    return asyncio.Semaphore(connections - 1) if connections > 1 else None


class SqlBase:
    """The engine and the transactions of the SQL store (:class:`~cardhall.store.sql.store.SqlStore`
    is made of the parts that stand on it)."""

    action_log: ActionLog  # (set by SqlStore: the seam of the hottest write)

    def __init__(
        self, engine: AsyncEngine, url: str, *, memory: bool = False, file: SqliteFile | None = None
    ) -> None:
        self.engine = engine
        self.dialect: Dialect = DIALECTS[engine.dialect.name]
        self.file = file  # an SQLite file's (None: PostgreSQL, or memory): checked at every use
        self.url = url  # without its password
        self.memory = memory
        lock = asyncio.Lock()
        self._write_lock = lock if self.dialect.one_writer else None
        self._read_lock = lock if memory else None
        self._read_slots = reader_slots(engine) if self._write_lock is not None and not memory else None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url}>"

    def _unavailable(self, error: BaseException) -> StoreUnavailableError:
        return StoreUnavailableError(f"the store at {self.url} failed: {reason(error)}")

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        """A connection in a transaction committed on leaving (rolled back on an exception); a store
        that fails raises :class:`StoreUnavailableError`."""
        if self.file is not None:
            self.file.check()
        try:
            async with held(self._write_lock), self.engine.begin() as connection:
                yield connection
        except IntegrityError:
            raise
        except FAILURES as e:
            raise self._unavailable(e) from e
        if self.file is not None:  # (committed into a file deleted meanwhile: not stored at all)
            self.file.check()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection whose reads see one snapshot; :class:`StoreUnavailableError` if it fails."""
        if self.file is not None:
            self.file.check()
        try:
            async with held(self._read_lock), held(self._read_slots), self.engine.connect() as connection:
                yield connection
        except IntegrityError:
            raise
        except FAILURES as e:
            raise self._unavailable(e) from e

    async def checkpoint(self) -> None:
        """SQLite file: copy the write-ahead log into the database, without waiting for (or holding up)
        a writer (``PASSIVE``); a log left over :data:`~cardhall.store.sqlite_file.WAL_LIMIT_BYTES`
        is then emptied (``TRUNCATE``), this process's writers waiting on the write lock meanwhile."""
        if self.file is None:  # PostgreSQL, or one shared memory database
            return
        self.file.check()
        async with held(self._read_slots):  # (as a reader: the writer's connection stays free)
            await self._checkpoint("PASSIVE")
        if self.file.wal_bytes() > sqlite_file.WAL_LIMIT_BYTES:
            async with held(self._write_lock):
                await self._checkpoint("TRUNCATE")

    async def _checkpoint(self, mode: str) -> None:
        async with self.engine.connect() as c:
            driver = (await c.get_raw_connection()).driver_connection  # aiosqlite's connection
            assert driver is not None
            # Outside SQLAlchemy's transaction (a checkpoint cannot run inside one).
            await driver.execute(f"PRAGMA wal_checkpoint({mode})")

    def problems(self) -> list[str]:
        problem = None if self.file is None else self.file.problem()
        return [] if problem is None else [problem]

    async def close(self) -> None:
        await self.action_log.close()
        await self.engine.dispose()
